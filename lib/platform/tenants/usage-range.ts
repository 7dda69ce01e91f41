/**
 * The periods a usage report covers (GET /usage and `cxctl usage` ask the same way): `from` and `to`
 * (ISO 8601, a date meaning its midnight, UTC; `to` excluded), defaults, and the first and last hour
 * or day their items are named by.
 */
import type { Granularity } from './usage.ts';

export interface UsageRange {
  granularity: Granularity;
  from: string;
  to: string;
  /** The first and last period's names (`2026-11-26T09` or `2026-11-26`). */
  first: string;
  last: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Why the range cannot be read, or the range. */
export function usageRange(
  asked: { from?: string; to?: string; granularity?: Granularity },
  nowMs: number,
  limits: { maxHours: number; maxDays: number },
): UsageRange | { problem: string; field: 'from' | 'to' } {
  const granularity = asked.granularity ?? 'hour';
  const step = granularity === 'hour' ? HOUR_MS : DAY_MS;
  const toMs = asked.to ? Date.parse(asked.to) : nowMs;
  const fromMs = asked.from ? Date.parse(asked.from) : toMs - (granularity === 'hour' ? 24 * HOUR_MS : 30 * DAY_MS);
  if (Number.isNaN(fromMs)) return { problem: 'is not a date or date-time', field: 'from' };
  if (Number.isNaN(toMs)) return { problem: 'is not a date or date-time', field: 'to' };
  if (fromMs >= toMs) return { problem: 'must be before `to`', field: 'from' };
  const periods = Math.ceil((toMs - Math.floor(fromMs / step) * step) / step);
  const max = granularity === 'hour' ? limits.maxHours : limits.maxDays;
  if (periods > max) return { problem: `is more than ${max} ${granularity === 'hour' ? 'hours' : 'days'} before \`to\``, field: 'from' };
  const name = (ms: number) => new Date(ms).toISOString().slice(0, granularity === 'hour' ? 13 : 10);
  return {
    granularity,
    from: new Date(fromMs).toISOString(),
    to: new Date(toMs).toISOString(),
    first: name(fromMs),
    // `to` is excluded: the last period is the one holding the moment just before it.
    last: name(toMs - 1),
  };
}
