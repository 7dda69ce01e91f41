/**
 * What one DynamoDB request consumes, item by item, priced by AWS's rules, and where each unit lands
 * (a table item or a gsi1 entry). Pure: the request comes with the images of the items it touched
 * (tap.ts reads them), so every rule below is applied to what DynamoDB itself would see.
 *
 * Reads (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
 *   - GetItem: 1 read unit per started 4 KB of the whole item (a projection does not make it smaller),
 *     half for an eventually consistent read; an absent item still costs the minimum (1, or 0.5);
 *   - BatchGetItem: each item on its own, as GetItem;
 *   - Query: the sizes of every item it evaluated (before a filter, after none), summed, then rounded up
 *     to 4 KB once; at least the minimum when it found nothing; on gsi1 the entries' projected size,
 *     always eventually consistent (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Reading);
 *   - TransactGetItems: 2 read units per started 4 KB of each item
 *     (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling).
 * Writes (same pages):
 *   - PutItem, UpdateItem, DeleteItem: 1 write unit per started KB of the larger of the item before
 *     and after the write (a delete: the item deleted; a failed condition: the larger of the item as it
 *     stands and the one asked for); at least 1;
 *   - BatchWriteItem: each put or delete on its own, as above;
 *   - TransactWriteItems: twice that for each item (DynamoDB prepares and commits each one);
 *     a ConditionCheck costs twice its item's size in write units: DynamoDB bills it as a write
 *     (measured against DynamoDB in https://github.com/paritysuite/dynamodb-conformance/pull/67;
 *     AWS's page says only that every item of a transaction is read or written twice).
 * gsi1 (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations):
 *   - a table write that adds an entry is a put of the projected entry (keys + TABLE.gsi1 attributes),
 *     one that removes it a delete, one that changes the index key a delete and a put, one that changes
 *     only projected attributes an update (the larger of before and after), anything else nothing;
 *   - index writes propagate after the table's commit, outside the transaction: never doubled.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GSI1_NON_KEY_ATTRIBUTES } from '../../lib/entities.ts';
import { TABLE } from '../../lib/platform/data/table.ts';
import { itemSize, pick, type WireItem } from './item-size.ts';
import type { IndexName, KeyRef, RangeRef } from './refs.ts';

export type { IndexName, KeyRef } from './refs.ts';

export interface Landing {
  key: KeyRef;
  kind: 'read' | 'write';
  units: number;
  /** The write made this item or index entry (it did not exist before): what tells a key range that ascends. */
  created: boolean;
  /**
   * The key range a Query read: its units land there as a whole (the range it reads from one partition,
   * or a few), besides their share on each item it evaluated.
   */
  range?: RangeRef;
}

/** One item a write touched, as it was before and after (undefined: absent). */
export interface ItemWrite {
  action: 'Put' | 'Update' | 'Delete' | 'ConditionCheck';
  key: KeyRef;
  before: WireItem | undefined;
  after: WireItem | undefined;
  /** The item a Put asked for (what a failed condition is priced by). */
  requested?: WireItem;
}

export interface ItemRead {
  key: KeyRef;
  item: WireItem | undefined;
}

export type PricedRequest =
  | { operation: 'GetItem' | 'BatchGetItem'; reads: ItemRead[]; consistent: boolean }
  | { operation: 'TransactGetItems'; reads: ItemRead[] }
  | {
      operation: 'Query' | 'Scan';
      index: IndexName;
      /** Every item the request evaluated, full (or projected into gsi1), in order. */
      evaluated: WireItem[];
      consistent: boolean;
      /** The range it asked for (where an empty Query's minimum lands, at its start). */
      range: RangeRef;
    }
  | { operation: 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'BatchWriteItem'; writes: ItemWrite[] }
  | { operation: 'TransactWriteItems'; writes: ItemWrite[] };

const KB = 1024;
const READ_UNIT_BYTES = 4 * KB;

export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));
export const readUnits = (bytes: number, consistent: boolean) => Math.max(1, Math.ceil(bytes / READ_UNIT_BYTES)) * (consistent ? 1 : 0.5);

const sizeOf = (item: WireItem | undefined) => (item ? itemSize(item) : 0);

export function scalarText(value: AttributeValue | undefined): string | undefined {
  if (!value) return undefined;
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.B !== undefined) return Buffer.from(value.B as Uint8Array).toString('base64');
  return undefined;
}

export function tableKeyOf(item: WireItem): KeyRef {
  return { index: 'table', pk: scalarText(item[TABLE.partitionKey]) ?? '', sk: scalarText(item[TABLE.sortKey]) ?? '' };
}

/** The item's gsi1 entry, when it has both of gsi1's key attributes (the index is sparse). */
function indexEntryOf(item: WireItem | undefined): { key: KeyRef; projected: WireItem } | undefined {
  const pk = scalarText(item?.[TABLE.gsi1.partitionKey]);
  const sk = scalarText(item?.[TABLE.gsi1.sortKey]);
  if (!item || pk === undefined || sk === undefined) return undefined;
  const projected = pick(item, [
    TABLE.partitionKey,
    TABLE.sortKey,
    TABLE.gsi1.partitionKey,
    TABLE.gsi1.sortKey,
    ...GSI1_NON_KEY_ATTRIBUTES,
  ]);
  return { key: { index: TABLE.gsi1.name, pk, sk }, projected };
}

const sameKey = (a: KeyRef, b: KeyRef) => a.index === b.index && a.pk === b.pk && a.sk === b.sk;

/** What a table write costs gsi1 (never doubled: index writes are not part of a transaction). */
function indexWrites(before: WireItem | undefined, after: WireItem | undefined): Landing[] {
  const old = indexEntryOf(before);
  const next = indexEntryOf(after);
  const put = (entry: { key: KeyRef; projected: WireItem }): Landing => ({
    key: entry.key,
    kind: 'write',
    units: writeUnits(itemSize(entry.projected)),
    created: true,
  });
  const remove = (entry: { key: KeyRef; projected: WireItem }): Landing => ({
    key: entry.key,
    kind: 'write',
    units: writeUnits(itemSize(entry.projected)),
    created: false,
  });
  if (!old && !next) return [];
  if (old && !next) return [remove(old)];
  if (!old && next) return [put(next)];
  if (!sameKey(old!.key, next!.key)) return [remove(old!), put(next!)];
  if (JSON.stringify(sortedItem(old!.projected)) === JSON.stringify(sortedItem(next!.projected))) return [];
  return [
    { key: next!.key, kind: 'write', units: writeUnits(Math.max(itemSize(old!.projected), itemSize(next!.projected))), created: false },
  ];
}

function sortedItem(item: WireItem): [string, AttributeValue][] {
  return Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const unchanged = (write: ItemWrite) =>
  write.before !== undefined &&
  write.after !== undefined &&
  JSON.stringify(sortedItem(write.before)) === JSON.stringify(sortedItem(write.after));

function itemWriteLandings(write: ItemWrite, transactional: boolean): Landing[] {
  const factor = transactional ? 2 : 1;
  const bytes = Math.max(sizeOf(write.before), sizeOf(write.after), write.action === 'Put' ? sizeOf(write.requested) : 0);
  const own: Landing = {
    key: write.key,
    kind: 'write',
    units: factor * writeUnits(bytes),
    created: write.before === undefined && write.after !== undefined,
  };
  if (write.action === 'ConditionCheck' || unchanged(write)) return [own];
  return [own, ...indexWrites(write.before, write.after)];
}

/** Every unit the request consumed, where it landed. */
export function landingsOf(request: PricedRequest): Landing[] {
  switch (request.operation) {
    case 'GetItem':
    case 'BatchGetItem':
      return request.reads.map((read) => ({
        key: read.key,
        kind: 'read',
        units: readUnits(sizeOf(read.item), request.consistent),
        created: false,
      }));
    case 'TransactGetItems':
      return request.reads.map((read) => ({ key: read.key, kind: 'read', units: 2 * readUnits(sizeOf(read.item), true), created: false }));
    case 'Query':
    case 'Scan': {
      const consistent = request.consistent && request.index === 'table';
      const sizes = request.evaluated.map(itemSize);
      const total = sizes.reduce((sum, size) => sum + size, 0);
      const units = readUnits(total, consistent);
      const { range } = request;
      if (request.evaluated.length === 0) {
        return [{ key: { index: range.index, pk: range.pk, sk: range.prefix }, kind: 'read', units, created: false, range }];
      }
      // The Query's units are shared by the items it read, in proportion to their bytes.
      return request.evaluated.map((item, i) => ({
        key: request.index === 'table' ? tableKeyOf(item) : (indexEntryOf(item)?.key ?? tableKeyOf(item)),
        kind: 'read',
        units: total === 0 ? units / sizes.length : (units * (sizes[i] as number)) / total,
        created: false,
        range,
      }));
    }
    case 'TransactWriteItems':
      return request.writes.flatMap((write) => itemWriteLandings(write, true));
    default:
      return request.writes.flatMap((write) => itemWriteLandings(write, false));
  }
}

export const totalUnits = (landings: readonly Landing[], kind: Landing['kind']) =>
  landings.filter((landing) => landing.kind === kind).reduce((sum, landing) => sum + landing.units, 0);
