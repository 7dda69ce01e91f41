/**
 * The workspace budget's arithmetic (lib/platform/tenants/budget.ts) and the bound docs/operating.md
 * states for it, held by simulation: requests fall on the shards at random, as authentication picks
 * them, a seeded generator makes every run the same, and each request is checked and counted exactly
 * as authorize.ts does (the read's check, then the count's verdict).
 */
import { describe, expect, it } from 'vitest';
import {
  budgetProblem,
  budgetShards,
  budgetStateOf,
  budgetWindowMs,
  budgetWindowName,
  type RequestBudget,
  roomInWindow,
  shardShare,
  spentBeforeCount,
  staleBudgetEntries,
  verdictOfCount,
} from '../../lib/platform/tenants/budget.ts';

/** mulberry32: a small seeded generator, so the simulation is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `perSecond` requests a second, evenly spaced, for `seconds`, each on a random shard: admitted or
 * refused as authentication decides, with `inFlight` requests read before the ones ahead of them
 * were counted (their read is that stale).
 */
function simulate(budget: RequestBudget, perSecond: number, seconds: number, options: { seed?: number; inFlight?: number } = {}) {
  const random = seeded(options.seed ?? 1);
  const shards = budgetShards(budget);
  const counters = Array.from({ length: shards }, () => ({}) as Record<string, number>);
  const windowMs = budgetWindowMs(budget);
  const admittedByWindow = new Map<number, number>();
  const pending: { shard: number; window: string; due: number }[] = [];
  let admitted = 0;
  let refused = 0;
  const total = Math.round(perSecond * seconds);
  for (let i = 0; i < total; i++) {
    const nowMs = 1_700_000_000_000 + Math.floor((i * 1000) / perSecond);
    // Counts of requests read earlier land now (their write was in flight while this one read).
    while (pending.length > (options.inFlight ?? 0)) {
      const done = pending.shift()!;
      counters[done.shard]![done.window] = (counters[done.shard]![done.window] ?? 0) + 1;
    }
    const shard = Math.floor(random() * shards);
    const state = budgetStateOf(counters[shard]!, budget, nowMs);
    if (spentBeforeCount(state, budget, nowMs)) {
      refused++;
      continue;
    }
    const { name } = budgetWindowName(budget, nowMs);
    // The count's condition sees every count DynamoDB applied before it, those in flight included.
    const inFlightHere = pending.filter((p) => p.shard === shard && p.window === name).length;
    const before = (counters[shard]![name] ?? 0) + inFlightHere;
    if (before >= roomInWindow(state.previous, budget, nowMs)) {
      refused++;
      continue;
    }
    pending.push({ shard, window: name, due: i });
    admitted++;
    const window = Math.floor(nowMs / windowMs);
    admittedByWindow.set(window, (admittedByWindow.get(window) ?? 0) + 1);
  }
  return { admitted, refused, total, windows: [...admittedByWindow.values()] };
}

describe('a workspace budget', () => {
  it('spreads its count so no shard takes more than 250 requests a second of it', () => {
    expect(budgetShards({ requestsPerSecond: 100, burst: 200 })).toBe(1);
    expect(budgetShards({ requestsPerSecond: 1000, burst: 2000 })).toBe(4);
    expect(budgetShards({ requestsPerSecond: 10_000, burst: 20_000 })).toBe(40);
    expect(budgetWindowMs({ requestsPerSecond: 10_000, burst: 20_000 })).toBe(2000);
    expect(shardShare({ requestsPerSecond: 10_000, burst: 20_000 })).toBe(500);
  });

  it('refuses a burst below the rate, and a rate past what the shards can hold', () => {
    expect(budgetProblem({ requestsPerSecond: 10, burst: 5 })).toMatch(/burst/);
    expect(budgetProblem({ requestsPerSecond: 0, burst: 5 })).toMatch(/requests per second/);
    expect(budgetProblem({ requestsPerSecond: 10, burst: 10 })).toBeNull();
  });

  it('names its windows by length and number, and drops entries older than the previous window', () => {
    const budget = { requestsPerSecond: 10, burst: 20 };
    const now = 1_700_000_001_000;
    const { name, previous } = budgetWindowName(budget, now);
    expect([name, previous]).toEqual(['2000:850000000', '2000:849999999']);
    expect(staleBudgetEntries({ [name]: 3, [previous]: 9, '2000:849999990': 1, '1000:1700000000': 4 }, budget, now).sort()).toEqual([
      '1000:1700000000',
      '2000:849999990',
    ]);
  });

  it.each([
    ['one shard, exact', { requestsPerSecond: 20, burst: 20 }],
    ['4 shards', { requestsPerSecond: 1000, burst: 2000 }],
    ['40 shards', { requestsPerSecond: 10_000, burst: 20_000 }],
  ])('admits at most shards × its share in any window of the clock at 4× its rate (%s)', (_, budget) => {
    const bound = budgetShards(budget) * shardShare(budget);
    expect(bound).toBeLessThan(budget.burst + budgetShards(budget));
    const run = simulate(budget, budget.requestsPerSecond * 4, 20, { inFlight: 8 });
    expect(Math.max(...run.windows)).toBeLessThanOrEqual(bound);
    // …and does not fall far short of it: 20 s at its rate is what it admits, give or take a window.
    expect(run.admitted).toBeGreaterThanOrEqual(budget.requestsPerSecond * 20 * 0.9);
    expect(run.admitted).toBeLessThanOrEqual(budget.requestsPerSecond * 20 + budget.burst + budgetShards(budget));
  });

  it.each([
    ['one shard', { requestsPerSecond: 20, burst: 20 }],
    ['4 shards', { requestsPerSecond: 1000, burst: 2000 }],
    ['40 shards', { requestsPerSecond: 10_000, burst: 20_000 }],
  ])('refuses fewer than 1 in 10,000 requests of a workspace sending at 80 %% of its rate (%s)', (_, budget) => {
    const run = simulate(budget, budget.requestsPerSecond * 0.8, 30, { seed: 7, inFlight: 8 });
    expect(run.refused / run.total).toBeLessThan(1 / 10_000);
  });

  it('says when there is room again: after the turn for a spent window, at once for room left', () => {
    const budget = { requestsPerSecond: 10, burst: 10 };
    const now = 1_700_000_000_250; // a quarter into a 1 s window
    const spent = spentBeforeCount({ previous: 0, current: 10 }, budget, now);
    expect(spent?.retryAfterSeconds).toBe(1);
    expect(spentBeforeCount({ previous: 0, current: 9 }, budget, now)).toBeNull();
    const verdict = verdictOfCount({ previous: 0, current: 10 }, budget, now, false);
    expect([verdict.over, verdict.remaining, verdict.resetSeconds, verdict.retryAfterSeconds]).toEqual([true, 0, 1, 1]);
    const within = verdictOfCount({ previous: 4, current: 3 }, budget, now, true);
    // Room now: 10 − 4 × 0.75 = 7, of which 3 are taken: 4 left.
    expect([within.over, within.remaining]).toEqual([false, 4]);
  });
});
