/**
 * What a link check decides, as pure functions: which URLs of a workspace to check, what an HTTP
 * answer means for a link, and the workspace's external links as the API lists them.
 */
import type { StoredLink } from '../record.ts';
import type { ExternalLinkRecord } from '../search/schemas.ts';
import type { ProbeResult } from './probe.ts';

/** A stored link as the checker records it (lib/knowledge-bank/record.ts: StoredLink, plus these). */
interface CheckedLink extends StoredLink {
  redirectTo?: string | null;
  detail?: string | null;
}

/** One KBLINKS item: the outgoing links of an article's draft or of its live revision. */
export interface LinkItem {
  pk: string;
  sk: string;
  articleId: string;
  links: CheckedLink[];
}

export interface CheckResult {
  status: 'ok' | 'broken' | 'redirected';
  httpStatus: number | null;
  redirectTo: string | null;
  detail: string | null;
  checkedAt: string;
}

const isCheckable = (link: CheckedLink) => link.kind === 'external' && /^https?:/i.test(link.target);

/**
 * The distinct http(s) URLs to check, those never checked first, then the longest unchecked: when a
 * run stops at its time budget, the next one carries on where it stopped.
 */
export function urlsToCheck(items: readonly LinkItem[]): string[] {
  const lastChecked = new Map<string, string>();
  for (const item of items)
    for (const link of item.links) {
      if (!isCheckable(link)) continue;
      const checkedAt = link.checkedAt ?? '';
      const known = lastChecked.get(link.target);
      if (known === undefined || checkedAt < known) lastChecked.set(link.target, checkedAt);
    }
  return [...lastChecked].sort(([a, at], [b, bt]) => (at < bt ? -1 : at > bt ? 1 : a < b ? -1 : 1)).map(([url]) => url);
}

/** 2xx ok; 3xx redirected (to its Location, not followed); anything else, or no answer, broken. */
export function resultOf(probe: ProbeResult, checkedAt: string): CheckResult {
  if (probe.status === null) return { status: 'broken', httpStatus: null, redirectTo: null, detail: probe.error, checkedAt };
  if (probe.status >= 200 && probe.status < 300)
    return { status: 'ok', httpStatus: probe.status, redirectTo: null, detail: null, checkedAt };
  if (probe.status >= 300 && probe.status < 400)
    return { status: 'redirected', httpStatus: probe.status, redirectTo: probe.location, detail: null, checkedAt };
  return { status: 'broken', httpStatus: probe.status, redirectTo: null, detail: null, checkedAt };
}

/** Every distinct external URL of the workspace, sorted, with the articles that link to it and its last result. */
export function externalLinks(items: readonly LinkItem[]): ExternalLinkRecord[] {
  const byUrl = new Map<string, { articles: Set<string>; latest: CheckedLink }>();
  for (const item of items)
    for (const link of item.links) {
      if (link.kind !== 'external') continue;
      const entry = byUrl.get(link.target);
      if (!entry) byUrl.set(link.target, { articles: new Set([item.articleId]), latest: link });
      else {
        entry.articles.add(item.articleId);
        if ((link.checkedAt ?? '') > (entry.latest.checkedAt ?? '')) entry.latest = link;
      }
    }
  return [...byUrl]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([url, { articles, latest }]) => ({
      url,
      status: latest.checkedAt ? (latest.status as CheckResult['status']) : 'unchecked',
      httpStatus: latest.httpStatus ?? null,
      redirectTo: latest.redirectTo ?? null,
      checkedAt: latest.checkedAt ?? null,
      detail: latest.detail ?? null,
      articles: [...articles].sort(),
    }));
}
