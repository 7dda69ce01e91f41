/**
 * A webhook's deliveries as the API lists them, newest first. They are spread over a few ranges
 * (entities.ts `webhookDeliveryEntity.keys.ranges`: the shards),
 * each sorted by event id, so a page is one parallel round of one Query per range, merged by event id:
 * the same order, the same offsets and the same cursors as a single range gave. A cursor is the last
 * delivery's key; the next page reads, in every range, the deliveries older than its event id.
 *
 * `status` narrows the list to one state. Held deliveries have ranges of their own in gsi1 (store/holds.ts),
 * so their page reads held deliveries only, then the page's records in one BatchGetItem; any other
 * state is a filter on the table's ranges, which reads (and bills) the deliveries of every state newer
 * than the page's last one.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { TABLE } from '../../platform/data/table.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { webhookDeliveryEntity } from '../entities.ts';
import { type Delivery, type DeliveryOutcome, toDelivery } from './deliveries.ts';

const LIST_ATTRIBUTES = [
  'eventId',
  'eventType',
  'status',
  'attempts',
  'attemptLog',
  'createdAt',
  'lastAttemptAt',
  'nextAttemptAt',
  'statusReason',
  'recoveryId',
];
const listProjection = {
  ProjectionExpression: LIST_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(LIST_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};

/** Items asked of one Query page while skipping to an offset. */
const MAX_ITEMS_PER_QUERY = 1000;

/** One range of the list: where it is, and its Query's key condition for everything, or everything before an event id. */
interface ListRange {
  query(before: string | undefined): Omit<QueryCommandInput, 'TableName' | 'ScanIndexForward' | 'Limit' | 'ExclusiveStartKey'> | null;
}

/** A table range of the webhook's deliveries, with a filter on their state when one is asked. */
function tableRange(
  workspace: string,
  range: { prefix: string; at: (eventId: string) => string },
  status: DeliveryOutcome | undefined,
): ListRange {
  return {
    query(before) {
      // Nothing in this range sorts before the cursor's event id (DynamoDB refuses a BETWEEN whose bounds cross).
      if (before !== undefined && range.at(before) < range.prefix) return null;
      return {
        // BETWEEN is inclusive: the cursor's own delivery may come back, and is dropped by the caller.
        KeyConditionExpression: before ? 'pk = :pk AND sk BETWEEN :range AND :before' : 'pk = :pk AND begins_with(sk, :range)',
        ...(status ? { FilterExpression: `#a${LIST_ATTRIBUTES.indexOf('status')} = :status` } : {}),
        ExpressionAttributeValues: {
          ':pk': workspacePk(workspace),
          ':range': range.prefix,
          ...(before ? { ':before': range.at(before) } : {}),
          ...(status ? { ':status': status } : {}),
        },
        ...listProjection,
      };
    },
  };
}

/** A gsi1 range of the webhook's held deliveries: keys and the index's few attributes, the records read after. */
function heldRange(gsi1pk: string): ListRange {
  return {
    query: (before) => ({
      IndexName: TABLE.gsi1.name,
      KeyConditionExpression: before ? 'gsi1pk = :pk AND gsi1sk < :before' : 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': gsi1pk, ...(before ? { ':before': before } : {}) },
    }),
  };
}

/** The event id of an item a range returned (the index gives it as its sort key). */
const eventIdOf = (item: Record<string, unknown>) => (item.eventId ?? item.gsi1sk) as string;

/** The newest `wanted` deliveries of one range, older than `before` (an event id) when given. */
async function newestOf(range: ListRange, wanted: number, before: string | undefined): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const query = range.query(before);
  if (!query) return items;
  let cursor: Record<string, unknown> | undefined;
  do {
    const result = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        ...query,
        ScanIndexForward: false,
        // DynamoDB takes a Limit of at most 2^31-1, and offset + limit can pass it; a page stops at 1 MB anyway.
        Limit: Math.min(wanted + 1 - items.length, MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(result.Items ?? []).filter((item) => before === undefined || eventIdOf(item) < before));
    cursor = result.LastEvaluatedKey;
  } while (cursor && items.length < wanted);
  return items.slice(0, wanted);
}

/**
 * A page of a webhook's deliveries (of one state, when `status` is given), newest first: by offset
 * (reading the deliveries before it in every range), or from a cursor's key (`after`), reading only a
 * page from each range.
 */
export async function listDeliveries(
  workspace: string,
  webhookId: string,
  page: PageStart,
  status?: DeliveryOutcome,
): Promise<{ deliveries: Delivery[]; hasMore: boolean; lastKey: PageKey | undefined; returned: number }> {
  const prefix = webhookDeliveryEntity.keys.prefix(webhookId);
  if (page.after && (page.after.pk !== workspacePk(workspace) || !String(page.after.sk).startsWith(prefix))) {
    throw new Error("A cursor for deliveries named a key outside the webhook's deliveries");
  }
  const before = page.after ? String(page.after.sk).split('#').at(-1) : undefined;
  const skip = page.after ? 0 : page.offset;
  const wanted = skip + page.limit + 1;
  const ranges =
    status === 'held'
      ? webhookDeliveryEntity.keys.heldRanges(workspace, webhookId).map(heldRange)
      : webhookDeliveryEntity.keys.ranges(webhookId).map((range) => tableRange(workspace, range, status));
  const found = await Promise.all(ranges.map((range) => newestOf(range, wanted, before)));
  const items = found.flat().sort((a, b) => (eventIdOf(a) < eventIdOf(b) ? 1 : -1));
  let window = items.slice(skip, skip + page.limit);
  if (status === 'held' && window.length > 0) {
    // The index holds keys and a few attributes: the page's records, read at once (one that left `held` meanwhile stays out).
    const records = await getMany(
      window.map((item) => ({ pk: item.pk as string, sk: item.sk as string })),
      { attributes: LIST_ATTRIBUTES },
    );
    window = records.filter((record): record is Record<string, unknown> => record?.status === 'held');
  }
  const last = items.slice(skip, skip + page.limit).at(-1);
  return {
    deliveries: window.map(toDelivery),
    hasMore: items.length > skip + page.limit,
    lastKey: last ? webhookDeliveryEntity.keys.delivery(workspace, webhookId, eventIdOf(last)) : undefined,
    returned: window.length,
  };
}
