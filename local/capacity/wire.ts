/**
 * DynamoDB requests as they go over the wire (the JSON body of `X-Amz-Target: DynamoDB_20120810.<Operation>`),
 * read for what they touch, and the images pricing needs (pricing.ts): every item a write touches as it
 * was before and after, every item a read read as a whole (a projection does not make a read cheaper),
 * and every item a Query evaluated. The images are read with a client of their own, which nothing
 * counts, checks or throttles.
 */
import {
  type AttributeValue,
  BatchGetItemCommand,
  type DynamoDBClient,
  QueryCommand,
  type QueryCommandInput,
  ScanCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from '../../lib/platform/data/table.ts';
import type { WireItem } from './item-size.ts';
import { type IndexName, type ItemRead, type ItemWrite, type KeyRef, type PricedRequest, scalarText, tableKeyOf } from './pricing.ts';
import type { RangeRef } from './refs.ts';

type Json = Record<string, unknown>;

export const READ_OPERATIONS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
export const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** A serialised request as an SDK middleware's `args` carry it. */
export interface WireRequest {
  headers: Record<string, string>;
  body?: unknown;
}

/** The request a middleware is handed, and the operation its `X-Amz-Target` header names. */
export function wireRequestOf(args: unknown): { request: WireRequest; operation: string } {
  const request = (args as { request: WireRequest }).request;
  const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'];
  return { request, operation: (target ?? '').split('.').at(-1) ?? '' };
}

/** The JSON body of a serialised request (the SDK hands it over as bytes). */
export function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  // By its bytes: Buffer.from(body) would call the SDK's adapter's valueOf, which warns.
  const bytes = body as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** One item a write asks to touch. */
export interface PlannedWrite {
  action: ItemWrite['action'];
  key: WireItem;
  requested?: WireItem;
}

const keyOfItem = (item: WireItem): WireItem => ({
  [TABLE.partitionKey]: item[TABLE.partitionKey] as AttributeValue,
  [TABLE.sortKey]: item[TABLE.sortKey] as AttributeValue,
});

export const keyId = (key: WireItem | KeyRef) =>
  'index' in key && typeof key.index === 'string'
    ? `${key.index}\u0000${key.pk}\u0000${key.sk}`
    : `table\u0000${scalarText((key as WireItem)[TABLE.partitionKey])}\u0000${scalarText((key as WireItem)[TABLE.sortKey])}`;

/** The items a write request asks to touch, in order (a batch's or a transaction's too). */
export function plannedWrites(operation: string, input: Json): PlannedWrite[] {
  switch (operation) {
    case 'PutItem':
      return [{ action: 'Put', key: keyOfItem(input.Item as WireItem), requested: input.Item as WireItem }];
    case 'UpdateItem':
      return [{ action: 'Update', key: input.Key as WireItem }];
    case 'DeleteItem':
      return [{ action: 'Delete', key: input.Key as WireItem }];
    case 'BatchWriteItem':
      return Object.values(input.RequestItems as Record<string, Json[]>).flatMap((requests) =>
        requests.map((request) =>
          request.PutRequest
            ? {
                action: 'Put' as const,
                key: keyOfItem((request.PutRequest as Json).Item as WireItem),
                requested: (request.PutRequest as Json).Item as WireItem,
              }
            : { action: 'Delete' as const, key: (request.DeleteRequest as Json).Key as WireItem },
        ),
      );
    case 'TransactWriteItems':
      return (input.TransactItems as Json[]).map((entry) => {
        const [action, body] = Object.entries(entry)[0] as [ItemWrite['action'], Json];
        return action === 'Put'
          ? { action, key: keyOfItem(body.Item as WireItem), requested: body.Item as WireItem }
          : { action, key: body.Key as WireItem };
      });
    default:
      return [];
  }
}

/** The keys a GetItem, BatchGetItem or TransactGetItems asks for, and whether they are read strongly. */
export function plannedReads(operation: string, input: Json): { keys: WireItem[]; consistent: boolean } {
  switch (operation) {
    case 'GetItem':
      return { keys: [input.Key as WireItem], consistent: input.ConsistentRead === true };
    case 'BatchGetItem': {
      const tables = Object.values(input.RequestItems as Record<string, Json>);
      return {
        keys: tables.flatMap((table) => table.Keys as WireItem[]),
        consistent: tables.every((table) => table.ConsistentRead === true),
      };
    }
    case 'TransactGetItems':
      return { keys: (input.TransactItems as Json[]).map((entry) => (entry.Get as Json).Key as WireItem), consistent: true };
    default:
      return { keys: [], consistent: false };
  }
}

/** Keys (in doc or wire form) an output lists as unprocessed, as key ids. */
export function unprocessedOf(operation: string, output: Json | undefined): Set<string> {
  const ids = new Set<string>();
  const plain = (value: unknown): AttributeValue =>
    value !== null && typeof value === 'object' && 'S' in (value as object) ? (value as AttributeValue) : { S: String(value) };
  const add = (key: Record<string, unknown>) =>
    ids.add(keyId({ [TABLE.partitionKey]: plain(key[TABLE.partitionKey]), [TABLE.sortKey]: plain(key[TABLE.sortKey]) }));
  if (operation === 'BatchWriteItem') {
    for (const requests of Object.values((output?.UnprocessedItems ?? {}) as Record<string, Json[]>)) {
      for (const request of requests) {
        if (request.PutRequest) add((request.PutRequest as Json).Item as Json);
        else add((request.DeleteRequest as Json).Key as Json);
      }
    }
  }
  if (operation === 'BatchGetItem') {
    for (const table of Object.values((output?.UnprocessedKeys ?? {}) as Record<string, Json>)) {
      for (const key of (table.Keys ?? []) as Json[]) add(key);
    }
  }
  return ids;
}

/** The items at `keys`, strongly consistent, by key id (absent ones missing). */
async function readImages(raw: DynamoDBClient, tableName: string, keys: readonly WireItem[]): Promise<Map<string, WireItem>> {
  const found = new Map<string, WireItem>();
  const unique = [...new Map(keys.map((key) => [keyId(key), key])).values()];
  for (let i = 0; i < unique.length; i += 100) {
    let pending: WireItem[] = unique.slice(i, i + 100);
    while (pending.length > 0) {
      const { Responses, UnprocessedKeys } = await raw.send(
        new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of Responses?.[tableName] ?? []) found.set(keyId(item), item);
      pending = (UnprocessedKeys?.[tableName]?.Keys ?? []) as WireItem[];
    }
  }
  return found;
}

/** The items `writes` touch, as they stand now, by key id (no request when there are none). */
export async function imagesOf(raw: DynamoDBClient, tableName: string, writes: readonly PlannedWrite[]): Promise<Map<string, WireItem>> {
  if (writes.length === 0) return new Map();
  return readImages(
    raw,
    tableName,
    writes.map((write) => write.key),
  );
}

/** Only the `#name` and `:value` placeholders an expression uses (DynamoDB refuses unused ones). */
function usedBy(expression: string, names: Json | undefined, values: Json | undefined) {
  const pick = (map: Json | undefined) => {
    if (!map) return undefined;
    const used = Object.fromEntries(Object.entries(map).filter(([placeholder]) => new RegExp(`${placeholder}(?![\\w])`).test(expression)));
    return Object.keys(used).length > 0 ? used : undefined;
  };
  return {
    ExpressionAttributeNames: pick(names) as Record<string, string> | undefined,
    ExpressionAttributeValues: pick(values) as WireItem | undefined,
  };
}

/**
 * The key range a Query asks for: its partition key value and the prefix every key it may read shares
 * (a `begins_with` prefix, the common start of BETWEEN's bounds, the key itself for `=`, none for a
 * one-sided comparison).
 */
export function queryRange(input: Json): RangeRef {
  const index: IndexName = input.IndexName === TABLE.gsi1.name ? TABLE.gsi1.name : 'table';
  const [pkName, skName] = index === 'table' ? [TABLE.partitionKey, TABLE.sortKey] : [TABLE.gsi1.partitionKey, TABLE.gsi1.sortKey];
  const expression = String(input.KeyConditionExpression ?? '');
  const names = (input.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (input.ExpressionAttributeValues ?? {}) as WireItem;
  const resolve = (name: string) => names[name] ?? name;
  const value = (placeholder: string | undefined) => scalarText(values[placeholder ?? '']) ?? '';
  let pk = '';
  let prefix = '';
  for (const match of expression.matchAll(/(#?\w+)\s*=\s*(:\w+)/g)) {
    if (resolve(match[1] as string) === pkName) pk = value(match[2]);
    else if (resolve(match[1] as string) === skName) prefix = value(match[2]);
  }
  const beginsWith = /begins_with\s*\(\s*(#?\w+)\s*,\s*(:\w+)\s*\)/i.exec(expression);
  if (beginsWith && resolve(beginsWith[1] as string) === skName) prefix = value(beginsWith[2]);
  const between = /(#?\w+)\s+BETWEEN\s+(:\w+)\s+AND\s+(:\w+)/i.exec(expression);
  if (between && resolve(between[1] as string) === skName) {
    const [from, to] = [value(between[2]), value(between[3])];
    let common = 0;
    while (common < from.length && from[common] === to[common]) common++;
    prefix = from.slice(0, common);
  }
  return { index, pk, prefix };
}

/** Every item a Query (or Scan) evaluated: the same request without its filter, projection or COUNT. */
async function evaluatedItems(raw: DynamoDBClient, operation: 'Query' | 'Scan', input: Json): Promise<WireItem[]> {
  const keyCondition = String(input.KeyConditionExpression ?? '');
  const placeholders = usedBy(keyCondition, input.ExpressionAttributeNames as Json, input.ExpressionAttributeValues as Json);
  const common = {
    TableName: input.TableName as string,
    IndexName: input.IndexName as string | undefined,
    Limit: input.Limit as number | undefined,
    ExclusiveStartKey: input.ExclusiveStartKey as WireItem | undefined,
    ConsistentRead: input.ConsistentRead as boolean | undefined,
  };
  if (operation === 'Scan') return (await raw.send(new ScanCommand(common))).Items ?? [];
  const query: QueryCommandInput = {
    ...common,
    KeyConditionExpression: keyCondition,
    ...placeholders,
    ScanIndexForward: input.ScanIndexForward as boolean | undefined,
  };
  return (await raw.send(new QueryCommand(query))).Items ?? [];
}

/** A write request with the images of what it touched. */
export function pricedWrite(
  operation: string,
  planned: readonly PlannedWrite[],
  before: ReadonlyMap<string, WireItem>,
  after: ReadonlyMap<string, WireItem>,
  skipped: ReadonlySet<string> = new Set(),
): PricedRequest {
  const writes: ItemWrite[] = planned
    .filter((write) => !skipped.has(keyId(write.key)))
    .map((write) => ({
      action: write.action,
      key: tableKeyOf(write.key),
      before: before.get(keyId(write.key)),
      after: after.get(keyId(write.key)),
      requested: write.requested,
    }));
  return { operation: operation as 'TransactWriteItems', writes };
}

/** A read request with the whole items it read (or, for a Query, evaluated). */
export async function pricedRead(
  raw: DynamoDBClient,
  tableName: string,
  operation: string,
  input: Json,
  skipped: ReadonlySet<string> = new Set(),
): Promise<PricedRequest> {
  if (operation === 'Query' || operation === 'Scan') {
    return {
      operation,
      index: input.IndexName === TABLE.gsi1.name ? TABLE.gsi1.name : 'table',
      evaluated: await evaluatedItems(raw, operation, input),
      consistent: input.ConsistentRead === true,
      range: queryRange(input),
    };
  }
  const { keys, consistent } = plannedReads(operation, input);
  const asked = keys.filter((key) => !skipped.has(keyId(key)));
  const items = await readImages(raw, tableName, asked);
  const reads: ItemRead[] = asked.map((key) => ({ key: tableKeyOf(key), item: items.get(keyId(key)) }));
  if (operation === 'TransactGetItems') return { operation, reads };
  return { operation: operation as 'GetItem', reads, consistent };
}
