/**
 * Where a workspace's budget and usage live: each in partitions of their own, apart from the
 * workspace's `WS#<slug>` partition (whose items the workspace export accounts for one by one), and
 * spread over several partition keys so no one item or key range takes a busy workspace's whole load
 * (docs/costs.md, "Scale").
 */

/** One shard of a workspace's request budget (lib/platform/tenants/budget.ts): its counter of requests by window. */
export const budgetShardKey = (workspace: string, shard: number) => ({ pk: `BUDGET#${workspace}#${shard}`, sk: 'BUDGET' });

/** The most shards a budget has (250,000 requests a second at 250 a shard: budget.ts); the stage's throttle is far below. */
export const MAX_BUDGET_SHARDS = 1000;

/** The key of every shard a workspace's budget can have had, whatever its budget was over time (for its deletion). */
export const everyBudgetShardKey = (workspace: string) =>
  Array.from({ length: MAX_BUDGET_SHARDS }, (_, shard) => budgetShardKey(workspace, shard));

/**
 * How many partitions a workspace's usage is written across: each Lambda instance writes to one, at
 * random, so at most a sixteenth of a workspace's instances write one item (docs/operating.md, "Tenants").
 */
export const USAGE_SHARDS = 16;

/** The partition of one usage shard of a workspace: its items are its hours (`H#…`) and days (`D#…`), in time order. */
export const usagePartition = (workspace: string, shard: number) => `USAGE#${workspace}#${shard}`;

/** The item of one hour (`2026-11-26T09`) or one day (`2026-11-26`) of a usage shard. */
export const usageKey = (workspace: string, shard: number, period: { hour: string } | { day: string }) => ({
  pk: usagePartition(workspace, shard),
  sk: 'hour' in period ? `H#${period.hour}` : `D#${period.day}`,
});

/** The sort keys of the periods from `first` to `last` (hours `2026-11-26T09`, or days `2026-11-26`) in a usage partition. */
export const usagePeriodRange = (granularity: 'hour' | 'day', first: string, last: string) => {
  const prefix = granularity === 'hour' ? 'H#' : 'D#';
  return { from: `${prefix}${first}`, to: `${prefix}${last}` };
};

/** Every item of usage starts its partition key with this: the usage writer's IAM grant names it (cdk/constructs/api-function.ts). */
export const USAGE_PARTITION_PREFIX = 'USAGE#';
