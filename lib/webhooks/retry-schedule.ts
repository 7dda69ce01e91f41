/**
 * When to try a failed delivery again. The default schedule waits 5 s, 30 s, 2 min, 10 min,
 * 30 min, 1 h, 3 h, 6 h, 12 h and 24 h: eleven attempts over about two days. Each wait gets
 * ±20 % jitter so a receiver that comes back up is not hit by every queued delivery at once, and
 * a receiver's Retry-After is honoured (never waiting less than it asks, up to a day).
 */

export const DEFAULT_RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800, 3600, 10_800, 21_600, 43_200, 86_400] as const;
const JITTER = 0.2;
const MAX_RETRY_AFTER_SECONDS = 86_400;

/** Parses WEBHOOK_RETRY_DELAYS (`"5,30,120"`); throws on anything but non-negative numbers. */
export function parseRetryDelays(raw: string | undefined): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_RETRY_DELAYS_SECONDS];
  const delays = raw.split(',').map((part) => part.trim());
  if (delays.some((d) => !/^\d+(\.\d+)?$/.test(d))) {
    throw new Error(`WEBHOOK_RETRY_DELAYS must be comma-separated seconds, e.g. "5,30,120", got "${raw}"`);
  }
  return delays.map(Number);
}

/** Seconds a Retry-After header asks for (delta-seconds or an HTTP date), or null. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/**
 * The wait before the next attempt, in seconds, after failed attempt number `attemptInRound`
 * (1-based, counted from the last (re)delivery request), or null when the attempts are used up.
 */
export function nextRetryDelaySeconds(options: {
  attemptInRound: number;
  delays: readonly number[];
  retryAfterSeconds: number | null;
  random?: () => number;
}): number | null {
  const base = options.delays[options.attemptInRound - 1];
  if (base === undefined) return null;
  const random = options.random ?? Math.random;
  const jittered = base * (1 - JITTER + 2 * JITTER * random());
  return Math.max(jittered, options.retryAfterSeconds ?? 0);
}

/** How many attempts one round makes: the first, then one per delay. */
export const attemptsPerRound = (delays: readonly number[]) => delays.length + 1;
