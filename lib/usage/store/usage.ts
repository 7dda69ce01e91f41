/**
 * A workspace's usage as kept (lib/platform/data/usage-writes.ts writes it): in each of its
 * USAGE_SHARDS partitions, one item per hour (`H#2026-11-26T09`) and per day (`D#2026-11-26`). One
 * Query per shard, all at once (one round trip), for the periods asked; eventually consistent, as
 * usage is written up to a second late anyway.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { USAGE_SHARDS, usagePartition, usagePeriodRange } from '../../platform/tenants/keys.ts';
import { type Counters, type Granularity, periodOfItem } from '../../platform/tenants/usage.ts';

/** Every shard's item of each period from `first` to `last` (hours `2026-11-26T09`, or days `2026-11-26`), with its counters. */
export async function listUsagePeriods(
  workspace: string,
  granularity: Granularity,
  first: string,
  last: string,
): Promise<{ period: string; counters: Counters }[]> {
  const range = usagePeriodRange(granularity, first, last);
  const shards = await Promise.all(
    Array.from({ length: USAGE_SHARDS }, async (_, shard) => {
      const items: Record<string, unknown>[] = [];
      let ExclusiveStartKey: Record<string, unknown> | undefined;
      do {
        const page = await dynamo.send(
          new QueryCommand({
            TableName: tableName,
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
            ExpressionAttributeValues: { ':pk': usagePartition(workspace, shard), ':first': range.from, ':last': range.to },
            ExclusiveStartKey,
          }),
        );
        items.push(...(page.Items ?? []));
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
      return items;
    }),
  );
  return shards.flat().map(periodOfItem);
}
