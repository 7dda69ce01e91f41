/**
 * A workspace budget's shards in the table (lib/platform/tenants/budget.ts has the rules): each a
 * counter of requests by window (window-counter.ts), read beside the workspace and the key in
 * authentication's one BatchGetItem and counted beside the key's own count, so the budget adds no
 * round trip. Its names are the key counter's, so the read-only routes' grant covers it unchanged.
 */

import { budgetWindowName, type RequestBudget, staleBudgetEntries } from '../tenants/budget.ts';
import { budgetShardKey } from '../tenants/keys.ts';
import { type CountedWindows, countInWindow } from './window-counter.ts';

export { budgetShardKey };

/**
 * Count one request in the shard's window while the window has room (`room`: how many it may hold
 * now), on condition, so a request refused for the budget is never counted. Answers the number this
 * request got, or the count that left no room for it.
 */
export async function countBudgetUse(
  workspace: string,
  shard: number,
  budget: RequestBudget,
  nowMs: number,
  seen: CountedWindows,
  room: number,
): Promise<{ counted: number } | { full: number }> {
  const outcome = await countInWindow(budgetShardKey(workspace, shard), {
    window: budgetWindowName(budget, nowMs).name,
    seen,
    stale: staleBudgetEntries(seen ?? {}, budget, nowMs),
    itemMustExist: false,
    below: room,
  });
  return 'gone' in outcome ? { counted: 1 } : outcome;
}
