/**
 * Writing an instance's buffered usage (lib/platform/tenants/usage-buffer.ts) to the table: one
 * UpdateItem that ADDs the counters to the workspace's hour, and one to its day, in the usage shard
 * this instance writes to (one of USAGE_SHARDS, picked at cold start), so a workspace's instances
 * spread their writes over that many partitions and none is hot (docs/costs.md). Never on a request's
 * path: a request starts the write of what earlier requests left (lib/platform/http/usage-meter.ts)
 * beside its own work, and a queue or stream batch writes its own after it. A failed write puts its
 * counters back, for the next; only what an instance holds when it dies is lost.
 *
 * Its own client, apart from the handlers' (client.ts): these writes are not the operation's, so
 * they do not wait for the rate-limit verdict, are not tallied as the request's usage, and the
 * sandbox counts them apart from the operation's calls. The grant that allows them names the usage
 * partitions only (`dynamodb:LeadingKeys` USAGE#*: cdk/constructs/api-function.ts).
 */
import { randomInt } from 'node:crypto';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { logger } from '../logger.ts';
import { USAGE_SHARDS, usageKey } from '../tenants/keys.ts';
import { type Counters, USAGE_LOG } from '../tenants/usage.ts';
import { type BufferedUsage, putBackUsage, takeUsage } from '../tenants/usage-buffer.ts';
import { tableName } from './client.ts';
import { TABLE } from './table.ts';

/** The usage writes' client: the handlers' timeouts (client.ts), one attempt more, no write gate. */
export const usageDynamo = DynamoDBDocumentClient.from(
  new DynamoDBClient({ maxAttempts: 3, requestHandler: { connectionTimeout: 1000, requestTimeout: 3000, throwOnRequestTimeout: true } }),
);

/** The shard this instance writes its usage to. */
const shard = randomInt(USAGE_SHARDS);

/** How long an hour's and a day's usage is kept: the time-to-live the items carry. */
const KEEP_HOURS_SECONDS = 40 * 86_400;
const KEEP_DAYS_SECONDS = 400 * 86_400;

function addTo(Key: { pk: string; sk: string }, counters: Counters, expiresAt: number, entity: string) {
  const names: Record<string, string> = { '#ttl': TABLE.ttlAttribute, '#entity': 'entity' };
  const values: Record<string, unknown> = { ':ttl': expiresAt, ':entity': entity };
  const adds = Object.entries(counters).map(([name, amount], i) => {
    names[`#c${i}`] = name;
    values[`:c${i}`] = amount;
    return `#c${i} :c${i}`;
  });
  return usageDynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key,
      UpdateExpression: `ADD ${adds.join(', ')} SET #ttl = if_not_exists(#ttl, :ttl), #entity = :entity`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

async function writeUsage(entries: readonly BufferedUsage[]): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const failed: BufferedUsage[] = [];
  await Promise.all(
    entries.map(async (entry) => {
      const day = entry.hour.slice(0, 10);
      const [hour, daily] = await Promise.allSettled([
        entry.into !== 'day' &&
          addTo(usageKey(entry.workspace, shard, { hour: entry.hour }), entry.counters, now + KEEP_HOURS_SECONDS, 'UsageHour'),
        entry.into !== 'hour' && addTo(usageKey(entry.workspace, shard, { day }), entry.counters, now + KEEP_DAYS_SECONDS, 'UsageDay'),
      ]);
      // Logged with the hour's write, the one every counter goes through once (a retry of the day's alone is not).
      if (entry.into !== 'day' && hour?.status === 'fulfilled') {
        logger.info(USAGE_LOG.message, {
          [USAGE_LOG.workspace]: entry.workspace,
          [USAGE_LOG.requests]: entry.counters.requests ?? 0,
          [USAGE_LOG.capacityUnits]: (entry.counters.readUnits ?? 0) + (entry.counters.writeUnits ?? 0),
        });
      }
      // Each item's counters go back alone, so a retry never adds to the one that was written.
      if (hour?.status === 'rejected') failed.push({ ...entry, into: 'hour' });
      if (daily?.status === 'rejected') failed.push({ ...entry, into: 'day' });
      const error = [hour, daily].find((w) => w?.status === 'rejected') as PromiseRejectedResult | undefined;
      if (error) logger.warn('Usage not written; kept for the next write', { workspace: entry.workspace, error: error.reason as Error });
    }),
  );
  putBackUsage(failed);
}

/** The writes under way (another request's, in the sandbox's one process): a forced write waits for them. */
const writing = new Set<Promise<void>>();

/**
 * Write what the instance buffered, if `USAGE_FLUSH_SECONDS` passed since its last write (`force`:
 * whatever is buffered, at once, once the writes under way are done too: a queue batch's end, a
 * usage read, which must see every request the instance answered). Never throws.
 */
export async function flushUsage(options: { force?: boolean } = {}): Promise<void> {
  const under = options.force ? [...writing] : [];
  const taken = takeUsage(Date.now(), options.force ? 0 : config.usageFlushSeconds() * 1000);
  if (taken.length > 0) {
    const write = writeUsage(taken).catch((error: unknown) => {
      putBackUsage(taken);
      logger.warn('Usage not written; kept for the next write', { error: error as Error });
    });
    writing.add(write);
    void write.finally(() => writing.delete(write));
    under.push(write);
  }
  await Promise.all(under);
}
