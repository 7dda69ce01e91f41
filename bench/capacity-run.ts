/**
 * Runs the capacity model's workloads against one sandbox in this process: the handlers' DynamoDB
 * client is tapped (local/capacity/tap.ts), the table stream's consumer is held and fed at the batch
 * size AWS would deliver at the workload's target rate (capacity-stream.ts), and each workload's
 * requests are priced and placed (capacity-model.ts). Nothing here is timed: only units per call count.
 */
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { config } from '../lib/platform/config.ts';
import { WORKSPACE_COPIES } from '../lib/platform/data/workspace-record.ts';
import { budgetShards } from '../lib/platform/tenants/budget.ts';
import { USAGE_SHARDS, usagePartition } from '../lib/platform/tenants/keys.ts';
import { ideaAndResponseChanges } from '../lib/webhooks/pipeline.ts';
import type { Landing, PricedRequest } from '../local/capacity/pricing.ts';
import type { TappedRequest } from '../local/capacity/tap.ts';
import { matchesFilter } from '../local/event-source-mappings.ts';
import { type Sandbox, startSandbox } from '../local/sandbox.ts';
import { modelWorkload, type WorkloadModel } from './capacity-model.ts';
import { awsStreamShape, StreamFeeder } from './capacity-stream.ts';
import { WORKLOAD_BUDGET, type Workload } from './capacity-workloads.ts';

/**
 * Copies every workload reads: authentication reads one of the workspace item's copies, chosen at
 * random, and one of its budget's shards, counting the request there (lib/platform/tenants/budget.ts).
 */
const EVERY_WORKLOAD_COPIES = new Map([
  ['table WS#<ws> WORKSPACE#COPY#<shard>', WORKSPACE_COPIES],
  ['table BUDGET#<ws>#<shard> BUDGET', budgetShards(WORKLOAD_BUDGET)],
]);

export interface WorkloadResult {
  id: string;
  title: string;
  call: string;
  target: number;
  targetNote: string | undefined;
  model: WorkloadModel;
  /** Stream records a call made for the fan-out consumer, the stream's shards at the target rate, and the batch size they were fed in. */
  stream: { recordsPerCall: number; shards: number; batchSize: number; batches: number };
  /** Why the workload misses its target (naming the bottleneck), or null when it meets it. */
  failure: string | null;
}

/** Writes that changed an item: each one is a stream record (an unchanged item makes none). */
function streamRecordsOf(priced: PricedRequest): { NewImage?: unknown; OldImage?: unknown }[] {
  if (!('writes' in priced)) return [];
  return priced.writes
    .filter((write) => write.action !== 'ConditionCheck' && JSON.stringify(write.before) !== JSON.stringify(write.after))
    .map((write) => ({ NewImage: write.after, OldImage: write.before }));
}

/**
 * An instance's usage writes as a call's share at the target (Workload.instances): the run made them
 * as one instance (the sandbox's one process) at its own pace; at the target, target × requestSeconds
 * instances each write the workspace's hour and day once every USAGE_FLUSH_SECONDS, so a call's share
 * is requestSeconds / flushSeconds of one instance's flush, whatever the rate. Each write keeps the
 * units the run measured for it (its item's size); only their number is scaled.
 */
function usageShare(usage: readonly TappedRequest[], workspace: string, calls: number, requestSeconds: number): Landing[] {
  const partitions = new Set(Array.from({ length: USAGE_SHARDS }, (_, shard) => usagePartition(workspace, shard)));
  const mine = usage.flatMap((request) => request.landings).filter((landing) => partitions.has(landing.key.pk));
  const flushes = mine.filter((landing) => landing.kind === 'write' && landing.key.sk.startsWith('H#')).length;
  if (flushes === 0) return [];
  const weight = (calls * requestSeconds) / (config.usageFlushSeconds() * flushes);
  return mine.map((landing) => ({ ...landing, units: landing.units * weight }));
}

function verdict(workload: Workload, model: WorkloadModel): string | null {
  const name = model.bottleneck ? `${model.bottleneck.kind === 'range' ? 'key range' : 'item'} ${model.bottleneck.template}` : 'nothing';
  if (model.ceiling < workload.target) {
    return `${workload.id}: ${Math.floor(model.ceiling).toLocaleString('en')}/s is below its target ${workload.target.toLocaleString('en')}/s; the bottleneck is ${name}`;
  }
  const further = workload.check?.(model);
  return further ? `${workload.id}: ${further}` : null;
}

export async function runCapacityModel(
  workloads: readonly Workload[],
  log: (line: string) => void = () => undefined,
): Promise<WorkloadResult[]> {
  // One rate-limit window for the whole run: a key's counter resets once a window (one more write a
  // minute, 1/60,000 of a key's writes at 1,000 a second), which a run of a few hundred calls would inflate.
  process.env.RATE_LIMIT_WINDOW_SECONDS = String(86_400);
  const sandbox: Sandbox = await startSandbox({ port: 0, tableName: 'cx-capacity', holdStreamFanOut: true });
  const raw = new DynamoDBClient({
    endpoint: sandbox.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const { dynamo } = await import('../lib/platform/data/client.ts');
  const { flushUsage, usageDynamo } = await import('../lib/platform/data/usage-writes.ts');
  const { tapDynamoDb } = await import('../local/capacity/tap.ts');
  let recording: TappedRequest[] | undefined;
  let recordingUsage: TappedRequest[] | undefined;
  tapDynamoDb(dynamo, { raw, tableName: sandbox.tableName, record: (request) => recording?.push(request) });
  tapDynamoDb(usageDynamo, { raw, tableName: sandbox.tableName, record: (request) => recordingUsage?.push(request) });
  const { Table } = await raw.send(new DescribeTableCommand({ TableName: sandbox.tableName }));
  const feeder = new StreamFeeder(sandbox.dynamodbEndpoint, Table?.LatestStreamArn as string);
  const results: WorkloadResult[] = [];
  try {
    for (const workload of workloads) {
      const started = Date.now();
      const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
      log(`${workload.id}: setting up`);
      const prepared = await workload.setup(sandbox);
      await feeder.mark();
      log(`${workload.id}: set up (${elapsed()}), recording`);
      // What set-up left in the instance's buffer is written before the recording starts.
      if (workload.instances) await flushUsage({ force: true });
      const tapped: TappedRequest[] = [];
      const usage: TappedRequest[] = [];
      recording = tapped;
      recordingUsage = usage;
      const calls = await prepared.run();
      // The calls' usage not yet written: at least one flush, whatever the run's pace.
      if (workload.instances) await flushUsage({ force: true });
      recordingUsage = undefined;
      // The stream records the calls made, and the batch size AWS would hand the consumer at the target rate.
      const records = tapped.flatMap((request) => streamRecordsOf(request.priced));
      const handed = records.filter((record) =>
        ideaAndResponseChanges.filters.some((filter) => matchesFilter(filter, { dynamodb: record })),
      );
      const tableWrites = tapped
        .flatMap((request) => request.landings)
        .filter((landing) => landing.kind === 'write' && landing.key.index === 'table')
        .reduce((sum, landing) => sum + landing.units, 0);
      const { shards, batchSize } = awsStreamShape(ideaAndResponseChanges, workload.target, handed.length / calls, tableWrites / calls);
      log(`${workload.id}: ${calls} calls made (${elapsed()}); feeding ${handed.length} stream records in batches of ${batchSize}`);
      const batches = await feeder.feed({
        definition: ideaAndResponseChanges,
        functionName: 'webhookEventsAndSurveySummaries',
        batchSize,
        expected: records.length,
      });
      await prepared.settle?.();
      recording = undefined;
      const counted = tapped.filter((request) => prepared.counts?.(request.handler) ?? true);
      const workspace = [...prepared.names].find(([, name]) => name === 'ws')?.[0];
      const perInstance = workload.instances && workspace ? usageShare(usage, workspace, calls, workload.instances.requestSeconds) : [];
      const model = modelWorkload([...counted.flatMap((request) => request.landings), ...perInstance], calls, {
        names: prepared.names,
        copies: new Map([...EVERY_WORKLOAD_COPIES, ...(workload.copies?.({ shards }) ?? [])]),
      });
      const failure = verdict(workload, model);
      log(`${workload.id}: done (${elapsed()}), ${calls} calls, ceiling ${Math.floor(model.ceiling)}/s${failure ? ` — ${failure}` : ''}`);
      results.push({
        id: workload.id,
        title: workload.title,
        call: workload.call,
        target: workload.target,
        targetNote: workload.targetNote,
        model,
        stream: { recordsPerCall: handed.length / calls, shards, batchSize, batches },
        failure,
      });
    }
  } finally {
    recording = undefined;
    recordingUsage = undefined;
    feeder.destroy();
    raw.destroy();
    await sandbox.stop();
  }
  return results;
}
