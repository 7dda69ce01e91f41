/**
 * Whole-partition and whole-table reads and batch writes for the operator's bulk commands (export,
 * delete, copy), on cxctl's own client. A batch write is retried for what DynamoDB leaves
 * unprocessed (a throttled partition) with full-jitter backoff: an operator command may wait longer
 * than a function (up to a minute in all), then fails saying how much was left.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
  type ScanCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { fullJitterDelayMs, sleep } from '../platform/data/backoff.ts';
import { keys } from '../platform/data/keys.ts';
import { AdminError, type TableClient } from './table-client.ts';

export type Item = Record<string, unknown>;
export type ItemKey = { pk: string; sk: string };

/** 25 requests per BatchWriteItem, 100 keys per BatchGetItem: DynamoDB's limits. */
const WRITE_BATCH = 25;
const READ_BATCH = 100;
const ATTEMPTS = 12;

/**
 * Each page of a paged Query or Scan, one call a page: `read` is sent with the previous page's
 * LastEvaluatedKey (undefined the first time) until DynamoDB says there is no more.
 */
async function* pagesOf<T extends Item>(
  read: (startKey: Item | undefined) => Promise<{ Items?: T[]; LastEvaluatedKey?: Item }>,
): AsyncGenerator<T[]> {
  let startKey: Item | undefined;
  do {
    const page = await read(startKey);
    yield page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Each page of a Query of the operator's table (`input` names neither the table nor a start key). */
export function queryPages(store: TableClient, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  return pagesOf((ExclusiveStartKey) => store.db.send(new QueryCommand({ TableName: store.table, ...input, ExclusiveStartKey })));
}

/** Each page of a Scan of the operator's table (`input` names neither the table nor a start key). */
export function scanPages(store: TableClient, input: Omit<ScanCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  return pagesOf((ExclusiveStartKey) => store.db.send(new ScanCommand({ TableName: store.table, ...input, ExclusiveStartKey })));
}

/**
 * Every item of a workspace (`pk = WS#<slug>`; or those whose sort key starts with `skPrefix`), a
 * page (≤ 1 MB) at a time, in sort-key order; strongly consistent, so what a command just wrote or
 * deleted is seen.
 */
export function workspacePartition(
  store: TableClient,
  slug: string,
  options: { projection?: readonly string[]; skPrefix?: string } = {},
): AsyncGenerator<Item[]> {
  const { projection, skPrefix } = options;
  return queryPages(store, {
    KeyConditionExpression: skPrefix ? 'pk = :pk AND begins_with(sk, :prefix)' : 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ...(skPrefix ? { ':prefix': skPrefix } : {}) },
    ...(projection
      ? {
          ProjectionExpression: projection.map((_, i) => `#p${i}`).join(', '),
          ExpressionAttributeNames: Object.fromEntries(projection.map((name, i) => [`#p${i}`, name])),
        }
      : {}),
    ConsistentRead: true,
  });
}

/** Every item of the table, a page (≤ 1 MB) at a time. */
export function tableItems(store: TableClient): AsyncGenerator<Item[]> {
  return scanPages(store, { ConsistentRead: true });
}

type WriteRequest = { PutRequest: { Item: Item } } | { DeleteRequest: { Key: ItemKey } };

async function batchWrite(store: TableClient, table: string, requests: WriteRequest[]): Promise<void> {
  for (let start = 0; start < requests.length; start += WRITE_BATCH) {
    let pending = requests.slice(start, start + WRITE_BATCH);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > ATTEMPTS)
        throw new AdminError(`DynamoDB left ${pending.length} writes to ${table} unprocessed after ${ATTEMPTS} attempts`);
      if (attempt > 1) await sleep(fullJitterDelayMs(attempt - 1, 50, 5000));
      const { UnprocessedItems } = await store.db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
      pending = (UnprocessedItems?.[table] ?? []) as WriteRequest[];
    }
  }
}

/**
 * Which of these keys name an item: one BatchGetItem per 100 keys, each projecting the key only (an
 * absent item costs half a read unit, eventually consistent), what DynamoDB leaves unprocessed read
 * again with backoff.
 */
export async function existingKeys(store: TableClient, candidates: readonly ItemKey[]): Promise<ItemKey[]> {
  const found: ItemKey[] = [];
  for (let start = 0; start < candidates.length; start += READ_BATCH) {
    let pending: ItemKey[] = candidates.slice(start, start + READ_BATCH);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > ATTEMPTS)
        throw new AdminError(`DynamoDB left ${pending.length} reads of ${store.table} unprocessed after ${ATTEMPTS} attempts`);
      if (attempt > 1) await sleep(fullJitterDelayMs(attempt - 1, 50, 5000));
      const { Responses, UnprocessedKeys } = await store.db.send(
        new BatchGetCommand({ RequestItems: { [store.table]: { Keys: pending, ProjectionExpression: 'pk, sk' } } }),
      );
      found.push(...((Responses?.[store.table] ?? []) as ItemKey[]));
      pending = (UnprocessedKeys?.[store.table]?.Keys ?? []) as ItemKey[];
    }
  }
  return found;
}

/** Deletes the items with these keys (in the order given: ascending keys spread nothing). */
export function deleteItems(store: TableClient, itemKeys: readonly ItemKey[]): Promise<void> {
  return batchWrite(
    store,
    store.table,
    itemKeys.map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } })),
  );
}

/** Puts these items, as they are, into `table` (which may be another table than the store's). */
export function putItems(store: TableClient, table: string, items: readonly Item[]): Promise<void> {
  return batchWrite(
    store,
    table,
    items.map((Item) => ({ PutRequest: { Item } })),
  );
}
