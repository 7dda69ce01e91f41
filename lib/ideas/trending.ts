/**
 * What "trending" means, as pure arithmetic: every vote counts 1 when it is cast and half as much
 * every HALF_LIFE_DAYS after (a vote a week old counts ½, two weeks ¼), and an idea's trending score
 * is the sum of its votes' weights now. A removed vote takes its weight with it.
 *
 * Every weight decays by the same factor as time passes, so the ORDER of ideas by that sum never
 * changes without a vote: ranking by Σ 2^((t − T0)/h) for a fixed epoch T0 is ranking by the score at
 * any moment. That is what makes the order storable in an index (a sort key) that nothing has to
 * rewrite as days pass, unlike "votes in the last 7 days", which changes with the clock.
 *
 * The sums are kept exactly, as integers, in the vote-count shards (lib/ideas/vote-count.ts): weights
 * of one PERIOD (13 half-lives, 91 days) relative to the period's start, in thousandths, one
 * attribute per period, each vote adding and its removal subtracting the same integer (DynamoDB's
 * ADD is exact decimal arithmetic). A weight within its period is at most 2^13 = 8,192, so the sums
 * stay far inside a number's 38 digits. Only the ranking (`rankOfTrend`) leaves exact integers: it
 * adds the periods in log space (no number overflows however many years pass).
 */

const DAY_MS = 86_400_000;
const HALF_LIFE_DAYS = 7;
/** Weights restart at 1 (1,000 thousandths) every PERIOD_HALF_LIVES half-lives. */
const PERIOD_HALF_LIVES = 13;
const HALF_LIFE_MS = HALF_LIFE_DAYS * DAY_MS;
const PERIOD_MS = PERIOD_HALF_LIVES * HALF_LIFE_MS;
/** The epoch periods count from (any fixed instant would do; order does not depend on it). */
const EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');
const THOUSANDTHS = 1000;

/** The shard attribute a vote cast at `castAt` adds its weight to: `trend<period>`. */
export function trendAttributeOf(castAt: string): string {
  return `trend${periodOf(Date.parse(castAt))}`;
}

function periodOf(ms: number): number {
  return Math.floor((ms - EPOCH_MS) / PERIOD_MS);
}

/** A vote's weight in its period, in thousandths: an integer, the same every time it is computed for that instant. */
export function trendWeightOf(castAt: string): number {
  const ms = Date.parse(castAt);
  const start = EPOCH_MS + periodOf(ms) * PERIOD_MS;
  return Math.round(THOUSANDTHS * 2 ** ((ms - start) / HALF_LIFE_MS));
}

const TREND_ATTRIBUTE = /^trend(-?\d+)$/;

/** The trend sums of shard items (or of one merged record of them), by period. */
export function trendSums(items: readonly Record<string, unknown>[]): Map<number, number> {
  const sums = new Map<number, number>();
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      const period = TREND_ATTRIBUTE.exec(name)?.[1];
      if (period !== undefined && typeof value === 'number') sums.set(Number(period), (sums.get(Number(period)) ?? 0) + value);
    }
  }
  return sums;
}

/**
 * log2 of Σ 2^((t − T0)/h) over the votes the sums hold, or null when they hold none: a number that
 * orders ideas by trending score. Each period's sum is log-scaled first, so no intermediate overflows.
 */
export function trendLogOf(sums: ReadonlyMap<number, number>): number | null {
  const terms = [...sums].filter(([, sum]) => sum > 0).map(([period, sum]) => period * PERIOD_HALF_LIVES + Math.log2(sum / THOUSANDTHS));
  if (terms.length === 0) return null;
  const top = Math.max(...terms);
  return top + Math.log2(terms.reduce((total, term) => total + 2 ** (term - top), 0));
}

/** The trending score now (what the votes weigh today), from the stored order value: for the docs and the tests. */
export function trendScoreAt(trendLog: number | null, nowMs: number): number {
  return trendLog === null ? 0 : 2 ** (trendLog - (nowMs - EPOCH_MS) / HALF_LIFE_MS);
}

/**
 * A sort key of fixed width that sorts as the number does: ideas with no votes first (all zeros), then
 * by log score in millionths, shifted so a score below 1 (votes older than the epoch's first periods)
 * still sorts above none. 16 digits hold a log score of ten billion half-lives.
 */
export function rankOfTrend(trendLog: number | null): string {
  if (trendLog === null) return '0'.padStart(16, '0');
  const shifted = Math.max(1, Math.round((trendLog + 1_000_000) * 1_000_000));
  return String(shifted).padStart(16, '0');
}

/** The sort key of a vote count (ten digits: 9,999,999,999 votes). */
export function rankOfVotes(votes: number): string {
  return String(Math.max(0, votes)).padStart(10, '0');
}
