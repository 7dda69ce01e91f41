/**
 * One ordered list kept in several key ranges (shards), so that no single range takes every write:
 * each range sorts by the list's order, and a reader merges them.
 *
 * `readMerged` reads the first `wanted` items of the merged list. Every range is queried at once (one
 * round trip), each asking for only about its share of the page (`firstLimit`). DynamoDB says where
 * each range stopped (LastEvaluatedKey), so the merge knows which items are surely in place: a range
 * that stopped at key k holds nothing unseen before k. When that does not yet prove the whole page,
 * one more parallel round asks only the ranges that could still hold one of its items, each for as
 * many items as could still be missing from the page after what the first round already placed
 * before that range's stopping point, which proves it (a filtered Query, which may return fewer
 * items than it read, can need more rounds, as a filtered Query of one range keeps reading today).
 *
 * `readAll` walks every item of the ranges in the list's order with a bounded buffer per range,
 * refilling in parallel the ranges that run low, so a long walk (an export) spreads its reads over all
 * ranges instead of draining one range after another.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client.ts';

type Item = Record<string, unknown>;

/** DynamoDB's own ceiling on Limit is none, but a page stops at 1 MB; this keeps one Query's answer bounded. */
const MAX_LIMIT = 1000;

export interface ShardedList {
  /** One Query per range, each in the list's order (ScanIndexForward), without Limit or ExclusiveStartKey. */
  ranges: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>[];
  /** The list's order: items compare by this string, computed from an item or from a LastEvaluatedKey. */
  orderOf(itemOrKey: Item): string;
  /** Newest first (true) or oldest first. */
  descending: boolean;
  /** Only items strictly after this position are wanted (a cursor's). */
  after?: string | undefined;
  /** Told the read units each Query consumed, and awaited before the walk goes on (an export's pace). */
  consumed?: (units: number) => Promise<void>;
}

export interface MergedPage {
  /** The first `wanted` items of the merged list, in order (fewer when the ranges hold fewer). */
  items: Item[];
  /** Parallel rounds of Queries it took (1, or 2 when the first could not prove the page). */
  rounds: number;
}

interface RangeState {
  query: ShardedList['ranges'][number];
  /** Where DynamoDB stopped; undefined once the range is read to its end. */
  lastKey: Item | undefined;
  exhausted: boolean;
}

/** `a` comes before `b` in the list's order. */
const before = (list: ShardedList, a: string, b: string) => (list.descending ? a > b : a < b);

async function queryRange(state: RangeState, limit: number, consumed?: ShardedList['consumed']): Promise<Item[]> {
  const {
    Items = [],
    LastEvaluatedKey,
    ConsumedCapacity,
  } = await dynamo.send(
    new QueryCommand({
      ...state.query,
      Limit: Math.max(1, Math.min(MAX_LIMIT, limit)),
      ExclusiveStartKey: state.lastKey,
      ...(consumed ? { ReturnConsumedCapacity: 'TOTAL' as const } : {}),
    }),
  );
  state.lastKey = LastEvaluatedKey;
  state.exhausted = LastEvaluatedKey === undefined;
  if (consumed) await consumed(ConsumedCapacity?.CapacityUnits ?? 0);
  return Items;
}

/** Adds items to the merged map, keyed by position (a record met twice, by a range read again, is kept once). */
function collect(list: ShardedList, merged: Map<string, Item>, items: Item[]): void {
  for (const item of items) {
    const position = list.orderOf(item);
    if (list.after !== undefined && !before(list, list.after, position)) continue;
    if (!merged.has(position)) merged.set(position, item);
  }
}

/** The first `wanted` items of the list; `firstLimit`: what the first round asks of each range. */
export async function readMerged(list: ShardedList, wanted: number, firstLimit: number): Promise<MergedPage> {
  const states: RangeState[] = list.ranges.map((query) => ({ query, lastKey: undefined, exhausted: false }));
  const merged = new Map<string, Item>();
  let rounds = 0;
  let limits = new Map(states.map((state) => [state, firstLimit]));
  for (;;) {
    rounds += 1;
    const answers = await Promise.all([...limits].map(([state, limit]) => queryRange(state, limit)));
    for (const items of answers) collect(list, merged, items);
    const ordered = [...merged.keys()].sort((a, b) => (before(list, a, b) ? -1 : before(list, b, a) ? 1 : 0));
    // An unseen item of a range comes after where that range stopped; past the page's last item, it cannot matter.
    const last = ordered.length >= wanted ? ordered[wanted - 1] : undefined;
    const open = states.filter((state) => {
      if (state.exhausted) return false;
      const stop = list.orderOf(state.lastKey as Item);
      return last === undefined || before(list, stop, last);
    });
    if (open.length === 0) return { items: ordered.slice(0, wanted).map((position) => merged.get(position) as Item), rounds };
    limits = new Map(
      open.map((state) => {
        const stop = list.orderOf(state.lastKey as Item);
        // Items already placed before this range's stop: the page has room for `wanted` minus those.
        const placed = ordered.filter((position) => !before(list, stop, position)).length;
        return [state, wanted - placed];
      }),
    );
  }
}

/** Every item of the ranges in the list's order, read `pageSize` per range at a time. */
export async function* readAll(list: ShardedList, pageSize: number): AsyncGenerator<Item> {
  const states = list.ranges.map((query) => ({ query, lastKey: undefined, exhausted: false, buffer: [] as Item[] }));
  for (;;) {
    const low = states.filter((state) => !state.exhausted && state.buffer.length < pageSize / 2);
    if (low.some((state) => state.buffer.length === 0)) {
      await Promise.all(
        low.map(async (state) => {
          state.buffer.push(...(await queryRange(state, pageSize, list.consumed)));
        }),
      );
      continue;
    }
    // Every range still open has an item buffered: the first of those is the next of the list.
    let next: (typeof states)[number] | undefined;
    for (const state of states) {
      const head = state.buffer[0];
      if (head && (!next || before(list, list.orderOf(head), list.orderOf(next.buffer[0] as Item)))) next = state;
    }
    if (!next) return;
    yield next.buffer.shift() as Item;
  }
}
