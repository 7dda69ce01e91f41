/**
 * One workspace at 10,000 requests a second with its request budget and its usage on (issue 41), as a
 * capacity-model workload: GET /me through 20 keys (one key carries 1,000 a second) in a workspace
 * whose budget is set to that rate (`cxctl workspace set-limit`, as newCaller sets every workload's), so
 * the budget admits it.
 *
 * Per request, authentication reads one shard of the budget in its strongly consistent BatchGetItem
 * and counts the request in it with one UpdateItem; the shard is picked at random among the budget's
 * `budgetShards(budget)`, so the model divides the budget's units over that many items
 * (lib/platform/tenants/budget.ts). Usage is written per instance, not per request: each instance
 * buffers its requests' counters and writes them to its workspace's hour and day, once every
 * USAGE_FLUSH_SECONDS, in the one of USAGE_SHARDS partitions it picked at cold start
 * (lib/platform/data/usage-writes.ts). capacity-run.ts turns those writes into a request's share at
 * the target: rate × REQUEST_SECONDS instances, each writing its hour and day once a flush.
 */
import { budgetShards } from '../lib/platform/tenants/budget.ts';
import { USAGE_SHARDS } from '../lib/platform/tenants/keys.ts';
import type { WorkloadModel } from './capacity-model.ts';
import { newCaller, WORKLOAD_BUDGET, type Workload } from './capacity-workloads.ts';
import { keyNames } from './capacity-workloads-platform.ts';

/** The budget every workload's workspace has (newCaller): its rate is this workload's target. */
const TARGET = WORKLOAD_BUDGET.requestsPerSecond;
const KEYS = 20;

/**
 * How long one request holds an instance, so how many instances the rate needs (rate × this). GET /me
 * is two round trips to DynamoDB (docs/latency.md, "Authentication"), a few milliseconds each in a
 * region, so 10–20 ms in Lambda; we take 50 ms: a longer request means more instances, and more
 * instances more usage writes, so the model errs on the heavy side (500 instances at 10,000 a second).
 */
const REQUEST_SECONDS = 0.05;

const USAGE_HOURS = 'table USAGE#<ws>#<shard> H#<key>';
const USAGE_DAYS = 'table USAGE#<ws>#<shard> D#<day>';

/** A usage partition holds its hour and its day: both items' writes count against its 1,000 units a second. */
function usagePartitionCeiling(model: WorkloadModel): number {
  const writes = model.buckets
    .filter((bucket) => bucket.kind === 'item' && (bucket.template === USAGE_HOURS || bucket.template === USAGE_DAYS))
    .reduce((sum, bucket) => sum + bucket.writePerCall, 0);
  return writes > 0 ? 1_000 / writes : Number.POSITIVE_INFINITY;
}

export const workspaceBudgetWorkload: Workload = {
  id: 'workspace-budget-and-usage',
  title: `One workspace at ${TARGET.toLocaleString('en')} requests a second, its budget and usage on, across ${KEYS} keys`,
  call: `GET /me with the next of ${KEYS} keys, counted in one of the budget's ${budgetShards(WORKLOAD_BUDGET)} shards; usage at ${REQUEST_SECONDS * 1000} ms an instance a request`,
  target: TARGET,
  instances: { requestSeconds: REQUEST_SECONDS },
  copies: () =>
    new Map([
      [USAGE_HOURS, USAGE_SHARDS],
      [USAGE_DAYS, USAGE_SHARDS],
    ]),
  check(model) {
    if (!model.buckets.some((bucket) => bucket.template === 'table BUDGET#<ws>#<shard> BUDGET')) return 'no request counted in the budget';
    if (!model.buckets.some((bucket) => bucket.template === USAGE_HOURS)) return 'no usage written';
    const ceiling = usagePartitionCeiling(model);
    return ceiling < TARGET
      ? `a usage partition (its hour and day items together) reaches 1,000 write units at ${Math.floor(ceiling)}/s`
      : null;
  },
  async setup(sandbox) {
    const caller = await newCaller(sandbox, 'tenant', KEYS);
    // Warm: each key's counter made, and the instance has seen the budget's shards (workspace-budget.ts).
    for (let i = 0; i < KEYS; i++) await caller.settingUp('GET', '/me', 200);
    return {
      names: await keyNames(sandbox, caller),
      async run() {
        const calls = 120;
        for (let i = 0; i < calls; i++) await caller.json('GET', '/me', 200);
        return calls;
      },
    };
  },
};
