/**
 * A workspace's request budget across all its keys (issue 41): the arithmetic, pure, so the same
 * rules answer the request (lib/platform/http/middleware/authorize.ts), the operator
 * (`cxctl workspace set-limit`), the capacity model and the tests.
 *
 * A budget is `requestsPerSecond` with a `burst`: at most `burst` requests in any window of
 * `burst / requestsPerSecond` seconds (at least one). That is a token bucket's promise (a burst at
 * once, then the rate) kept by the sliding-window counter Cloudflare describes
 * (https://blog.cloudflare.com/counting-things-a-lot-of-different-things/): the count of the window
 * that is running, plus the count of the window before it weighted by the share of that window
 * still inside the last `window` seconds.
 *
 * No hot item: the count is spread over `shards` items (`BUDGET#<workspace>#<shard>`, a partition
 * each), one at random per request, each holding the budget's share. At most SHARD_REQUESTS_PER_SECOND
 * of the budget lands on one shard, a quarter of what one item takes in writes (1,000 a second), and
 * a flood of reads of a spent budget spreads over them as well.
 *
 * The bound (test/unit/workspace-budget.test.ts holds it by simulation): in each window, aligned
 * to the clock, one shard admits at most its share, so the workspace at most
 * `shards × ceil(burst / shards)` < `burst + shards`; a workspace sending at 80 % of its budget or
 * less is refused less than once in 10,000 requests, however its requests fall on the shards.
 */
import { MAX_BUDGET_SHARDS } from './keys.ts';

/** What one shard of a budget carries at the budget's rate: a quarter of one item's 1,000 writes a second. */
const SHARD_REQUESTS_PER_SECOND = 250;

export interface RequestBudget {
  requestsPerSecond: number;
  burst: number;
}

/** Why a budget is not valid, or null when it is. */
export function budgetProblem(budget: RequestBudget): string | null {
  const { requestsPerSecond, burst } = budget;
  if (!Number.isInteger(requestsPerSecond) || requestsPerSecond < 1 || requestsPerSecond > MAX_BUDGET_SHARDS * SHARD_REQUESTS_PER_SECOND) {
    return `requests per second must be a whole number from 1 to ${(MAX_BUDGET_SHARDS * SHARD_REQUESTS_PER_SECOND).toLocaleString('en')}`;
  }
  if (!Number.isInteger(burst) || burst < requestsPerSecond || burst > requestsPerSecond * 60) {
    return 'the burst must be a whole number of requests from the requests per second to 60 times them';
  }
  return null;
}

/** The window's length, in milliseconds: the time the rate takes to send the burst, at least a second. */
export function budgetWindowMs(budget: RequestBudget): number {
  return Math.max(1000, Math.round((1000 * budget.burst) / budget.requestsPerSecond));
}

/** How many items the count is spread over. */
export function budgetShards(budget: RequestBudget): number {
  return Math.min(MAX_BUDGET_SHARDS, Math.max(1, Math.ceil(budget.requestsPerSecond / SHARD_REQUESTS_PER_SECOND)));
}

/** One shard's share of the burst, in each window. */
export function shardShare(budget: RequestBudget): number {
  return Math.ceil(budget.burst / budgetShards(budget));
}

/**
 * The name of a window's entry in a shard's counter: the window's length and its number, so a
 * budget changed to another window starts counting afresh instead of misreading the old entries.
 */
export function budgetWindowName(budget: RequestBudget, nowMs: number): { name: string; previous: string; number: number } {
  const windowMs = budgetWindowMs(budget);
  const number = Math.floor(nowMs / windowMs);
  return { name: `${windowMs}:${number}`, previous: `${windowMs}:${number - 1}`, number };
}

/** The entries of a shard's counter that no estimate needs any more (this window's and the one before stay). */
export function staleBudgetEntries(counted: Readonly<Record<string, number>>, budget: RequestBudget, nowMs: number): string[] {
  const { name, previous } = budgetWindowName(budget, nowMs);
  return Object.keys(counted).filter((entry) => entry !== name && entry !== previous);
}

export interface BudgetState {
  /** The shard's count of the window before this one (0 when unknown). */
  previous: number;
  /** Its count of this window. */
  current: number;
}

/** How much of the window that is running has passed, 0 to 1. */
function elapsed(budget: RequestBudget, nowMs: number): number {
  const windowMs = budgetWindowMs(budget);
  return (nowMs % windowMs) / windowMs;
}

/** The shard's state as its counter item holds it (the entries read, or what a count answered). */
export function budgetStateOf(counted: Readonly<Record<string, number>> | null, budget: RequestBudget, nowMs: number): BudgetState {
  const { name, previous } = budgetWindowName(budget, nowMs);
  return { previous: counted?.[previous] ?? 0, current: counted?.[name] ?? 0 };
}

/** Whole seconds until the estimate, with no new request counted, has room for one more (at least 1). */
function secondsUntilRoom(state: BudgetState, budget: RequestBudget, nowMs: number): number {
  const windowMs = budgetWindowMs(budget);
  const share = shardShare(budget);
  const untilTurn = windowMs - (nowMs % windowMs);
  let waitMs: number;
  if (state.current + 1 > share) {
    // This window is spent: after the turn, this window's count weighs as the previous one does now.
    const after = state.current > 0 ? Math.max(0, 1 - (share - 1) / state.current) * windowMs : 0;
    waitMs = untilTurn + after;
  } else {
    // The previous window's weight has to fall: previous × (1 − f) + current + 1 ≤ share.
    const neededElapsed = state.previous > 0 ? 1 - (share - state.current - 1) / state.previous : 0;
    waitMs = Math.max(0, neededElapsed * windowMs - (nowMs % windowMs));
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/**
 * How many requests this window of the shard may hold now: its share, less the previous window's
 * count weighted by the share of that window still inside the last window's length. The count is
 * written only while the window holds fewer (a condition of its one UpdateItem), so a refused
 * request is never counted: a flood cannot inflate the count that the next window's estimate reads.
 */
export function roomInWindow(previous: number, budget: RequestBudget, nowMs: number): number {
  return Math.floor(shardShare(budget) - previous * (1 - elapsed(budget, nowMs)));
}

/**
 * Before the count, from what the read found: whether the shard's share is spent already. A request
 * refused here writes nothing at all, and no operation runs for it.
 */
export function spentBeforeCount(state: BudgetState, budget: RequestBudget, nowMs: number): { retryAfterSeconds: number } | null {
  return state.current >= roomInWindow(state.previous, budget, nowMs)
    ? { retryAfterSeconds: secondsUntilRoom(state, budget, nowMs) }
    : null;
}

export interface BudgetVerdict {
  over: boolean;
  /** The workspace's requests left in this window, estimated from the shard (its share × shards). */
  remaining: number;
  /** Whole seconds until the window that is running ends. */
  resetSeconds: number;
  /** When over: whole seconds until there is room again. */
  retryAfterSeconds: number;
}

/**
 * Once counted, or refused by the count's condition: `current` is the number this request got in its
 * shard's window (the write's answer), or the count that had no room for it; `previous` the previous
 * window's count as the read found it.
 */
export function verdictOfCount(state: BudgetState, budget: RequestBudget, nowMs: number, counted: boolean): BudgetVerdict {
  const windowMs = budgetWindowMs(budget);
  const room = roomInWindow(state.previous, budget, nowMs);
  return {
    over: !counted,
    remaining: Math.max(0, (room - state.current) * budgetShards(budget)),
    resetSeconds: Math.max(1, Math.ceil((windowMs - (nowMs % windowMs)) / 1000)),
    retryAfterSeconds: counted ? 0 : secondsUntilRoom(state, budget, nowMs),
  };
}
