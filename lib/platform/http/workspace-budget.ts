/**
 * The workspace's request budget as authentication applies it (authorize.ts): which shard a request
 * reads and counts in, whether the read already shows its share spent (then the request is refused
 * with no write and no operation run), and, once counted, its verdict and headers. The rules are
 * lib/platform/tenants/budget.ts; the shards' reads and writes lib/platform/data/workspace-budget.ts.
 */
import { randomInt } from 'node:crypto';
import { pushBack } from '../busy.ts';
import { config } from '../config.ts';
import type { CountedWindows } from '../data/window-counter.ts';
import { budgetShardKey, countBudgetUse } from '../data/workspace-budget.ts';
import type { Workspace } from '../data/workspace-record.ts';
import { WorkspaceRateLimitedError } from '../errors.ts';
import {
  budgetShards,
  budgetStateOf,
  budgetWindowMs,
  type RequestBudget,
  roomInWindow,
  spentBeforeCount,
  verdictOfCount,
} from '../tenants/budget.ts';

/** The workspace's own budget, or the plan's default. */
function budgetOf(workspace: Workspace): RequestBudget {
  return workspace.requestBudget ?? config.workspaceBudget();
}

/**
 * How many shards each workspace's budget had when this instance last saw it. The shard a request
 * reads must be picked before the workspace is read (they are read together), so it is picked among
 * the shards the budget had last time; a budget changed since (or an instance's first request of a
 * workspace, which assumes the plan's default) only makes that one request skip the check from the
 * read: its count, exact, still decides. Configuration cached per instance, like a warm index, not
 * per-request state.
 */
const lastSeenShards = new Map<string, number>();

/**
 * The shard this request reads: one at random among the shards the budget had when this instance last
 * saw it (`of`), so none takes more than its share.
 */
export function pickBudgetShard(workspace: string): { shard: number; of: number; key: { pk: string; sk: string } } {
  const of = lastSeenShards.get(workspace) ?? budgetShards(config.workspaceBudget());
  const shard = randomInt(of);
  return { shard, of, key: budgetShardKey(workspace, shard) };
}

/** What the budget says of a request before it is counted, from authentication's read. */
export type BudgetCheck = { spent: WorkspaceRateLimitedError } | { spent: null; count: () => Promise<BudgetCounted>; policy: string };

interface BudgetCounted {
  headers: Record<string, string>;
  remaining: number;
  refusal: WorkspaceRateLimitedError | null;
}

const headersOf = (budget: RequestBudget, remaining: number, resetSeconds: number) => ({
  'RateLimit-Limit': String(budget.burst),
  'RateLimit-Remaining': String(remaining),
  'RateLimit-Reset': String(resetSeconds),
});

/** `<burst>;w=<seconds>`: the budget as the RateLimit-Policy header names a policy. */
const policyOf = (budget: RequestBudget) => `${budget.burst};w=${budgetWindowMs(budget) / 1000};name="workspace"`;

/**
 * Check the request against the shard it read (`seen`): spent already, or how to count it. When the
 * budget has another number of shards than the read assumed (it changed since this instance last saw
 * it, or this is the instance's first request of the workspace), the read tells nothing: the request
 * is counted in a shard picked at random among the budget's own, as if that shard's previous window
 * were empty, and its count's condition decides. So a budget grown to many shards spreads even the
 * first requests of new instances over all of them, instead of the default's few.
 */
export function checkBudget(workspace: Workspace, picked: { shard: number; of: number }, seen: CountedWindows, nowMs: number): BudgetCheck {
  const budget = budgetOf(workspace);
  const shards = budgetShards(budget);
  lastSeenShards.set(workspace.slug, shards);
  const readTheShard = picked.of === shards;
  const shard = readTheShard ? picked.shard : randomInt(shards);
  const state = budgetStateOf(readTheShard ? seen : null, budget, nowMs);
  const spent = spentBeforeCount(state, budget, nowMs);
  if (spent) {
    const verdict = verdictOfCount(state, budget, nowMs, false);
    return {
      spent: new WorkspaceRateLimitedError(spent.retryAfterSeconds, {
        ...headersOf(budget, 0, verdict.resetSeconds),
        'RateLimit-Policy': policyOf(budget),
      }),
    };
  }
  return {
    spent: null,
    policy: policyOf(budget),
    count: async () => {
      const room = roomInWindow(state.previous, budget, nowMs);
      const outcome = await countBudgetUse(workspace.slug, shard, budget, nowMs, readTheShard ? seen : null, room).catch(
        budgetCounterThrottled,
      );
      const counted = 'counted' in outcome;
      const current = counted ? outcome.counted : outcome.full;
      const verdict = verdictOfCount({ previous: state.previous, current }, budget, nowMs, counted);
      const headers = headersOf(budget, verdict.remaining, verdict.resetSeconds);
      return {
        headers,
        remaining: verdict.remaining,
        refusal: verdict.over ? new WorkspaceRateLimitedError(verdict.retryAfterSeconds, headers) : null,
      };
    },
  };
}

/** A shard DynamoDB throttled is the workspace's own traffic: its 429, not the service's 503. */
function budgetCounterThrottled(failure: unknown): never {
  if (pushBack(failure) !== 'throttled') throw failure;
  throw new WorkspaceRateLimitedError(1, {});
}
