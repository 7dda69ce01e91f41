/**
 * One URL's check: HEAD first (no body), GET when the server does not do HEAD (405, 501), each
 * through the outbound SSRF guard with a 10 s deadline and no redirect followed; at most a few
 * requests to one host at a time, so a help centre linking 300 pages of one site never floods it.
 */
import { config } from '../../platform/config.ts';
import { probe } from '../../platform/outbound/http-post.ts';

export const PER_HOST_CONCURRENCY = 2;
const TOTAL_CONCURRENCY = 16;

export interface ProbeResult {
  status: number | null;
  location: string | null;
  error: string | null;
}

/** 10 s; KB_LINK_CHECK_TIMEOUT_MS shortens it in tests. */
const timeoutOf = () => config.integer('KB_LINK_CHECK_TIMEOUT_MS', 10_000, 100);

export async function probeUrl(url: string, timeoutMs = timeoutOf()): Promise<ProbeResult> {
  // A small body cap: a link check needs the status line, not the page.
  const head = await probe(url, 'HEAD', { timeoutMs, maxResponseBytes: 16 * 1024 });
  if (head.status !== 405 && head.status !== 501) return head;
  return probe(url, 'GET', { timeoutMs, maxResponseBytes: 16 * 1024 });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Checks every URL, `TOTAL_CONCURRENCY` at a time and `PER_HOST_CONCURRENCY` per host, calling
 * `onResult` as each finishes; stops taking new URLs once `shouldStop()` says so.
 */
export async function probeAll(
  urls: readonly string[],
  onResult: (url: string, result: ProbeResult) => Promise<void> | void,
  { shouldStop = () => false, check = probeUrl }: { shouldStop?: () => boolean; check?: (url: string) => Promise<ProbeResult> } = {},
): Promise<{ checked: number; remaining: number }> {
  const waiting = [...urls];
  const perHost = new Map<string, number>();
  let running = 0;
  let checked = 0;
  return new Promise((resolve, reject) => {
    const next = () => {
      if (shouldStop()) waiting.length = 0;
      while (running < TOTAL_CONCURRENCY) {
        const index = waiting.findIndex((url) => (perHost.get(hostOf(url)) ?? 0) < PER_HOST_CONCURRENCY);
        if (index < 0) break;
        const [url] = waiting.splice(index, 1) as [string];
        const host = hostOf(url);
        perHost.set(host, (perHost.get(host) ?? 0) + 1);
        running++;
        check(url)
          .then((result) => onResult(url, result))
          .then(() => {
            checked++;
            running--;
            perHost.set(host, (perHost.get(host) ?? 1) - 1);
            next();
          })
          .catch(reject);
      }
      if (running === 0) resolve({ checked, remaining: urls.length - checked });
    };
    next();
  });
}
