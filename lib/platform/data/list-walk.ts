/**
 * The one walk of a paged list with a total. Every counted list keeps its counter as the first item
 * of its descending range (`IDEA$COUNTER` after every `IDEA#…`, say), so one Query answers both the
 * total and the page:
 *   - by offset, DynamoDB cannot skip, so the walk reads the `offset` records before the page (the
 *     cost grows with the offset, never past the list), and stops as soon as the counter shows the
 *     offset is past the end;
 *   - from a cursor (the key of the previous page's last record), the Query starts right there and
 *     reads only the page, and the counter is read beside it (one round trip of latency).
 * One record beyond the page tells whether more follow, whatever the counter says. A filtered
 * Query (archived records, a `kind`) keeps reading until the page is full or the range ends.
 * A count written often is sharded in several counter items (a survey's responses: 16, so no submit
 * waits on one item): they all lead the range, the first Query asks for that many more items, and
 * the total is the sum the list makes of the counters met, so the round trips stay those of one counter.
 * A list whose count is kept elsewhere (`countersApart`: an idea's votes, counted on shards outside
 * their range) reads it beside every page, by offset too: one more call, no more round trips.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PageKey, PageStart } from '../pagination.ts';
import { dynamo } from './client.ts';

type Item = Record<string, unknown>;

/** Items asked of one Query page while skipping to an offset (a page also stops at 1 MB). */
const MAX_ITEMS_PER_QUERY = 1000;

export interface CountedList {
  /** The descending Query of the range, counter first: table, index, keys, filter, projection. */
  query: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'>;
  isCounter(item: Item): boolean;
  /** How many counter items lead the range at most: 1, or the shards of a sharded count. */
  counterItems?: number;
  /** The counters are not in the range: `readCounters` is read beside every page. */
  countersApart?: boolean;
  /** The total, from the counter items met (none when nothing was ever counted). */
  totalOf(counters: Item[]): number;
  /** The counters alone (one GetItem, or one Query of the shards), for a page that starts at a cursor, below them. */
  readCounters(): Promise<Item[]>;
  /** Whether a cursor's key lies inside this list's range: it is signed for the workspace, but is checked anyway before DynamoDB sees it. */
  cursorInRange(after: PageKey): boolean;
  /** The key a cursor continues from, for the page's last record. */
  keyOf(item: Item): PageKey;
}

export interface CountedPage {
  /** The page's records, at most `limit`, in the range's order. */
  items: Item[];
  total: number;
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

/** A list's one counter item, as `readCounters` answers it (none when it was never made). */
export const counted = (counter: Item | undefined): Item[] => (counter ? [counter] : []);

export async function walkCountedList(list: CountedList, { limit, offset, after }: PageStart): Promise<CountedPage> {
  if (after && !list.cursorInRange(after)) throw new Error('A cursor named a key outside its list');
  const skip = after ? 0 : offset;
  const wanted = skip + limit + 1;
  const apart = after !== undefined || list.countersApart === true;
  const counterRead = apart ? list.readCounters() : undefined;
  // Awaited below; a failed Query first must not leave its rejection unhandled.
  counterRead?.catch(() => undefined);
  const counters: Item[] = [];
  let total: number | undefined;
  let skipped = 0;
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined = after;
  do {
    // In offset mode the counters are still ahead until read: one more item asked for each.
    const counterAhead = !apart && total === undefined ? (list.counterItems ?? 1) : 0;
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        ...list.query,
        Limit: Math.min(wanted - skipped - page.length + counterAhead, MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (!apart && list.isCounter(item)) counters.push(item);
      else if (skipped < skip) skipped++;
      else if (page.length < limit + 1) page.push(item);
    }
    if (counterRead) total ??= list.totalOf(await counterRead);
    // In descending order the counters come first: the first page holds every one ever made.
    total ??= list.totalOf(counters);
    cursor = LastEvaluatedKey;
    if (!after && offset >= total) break;
  } while (cursor && skipped + page.length < wanted);
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown, total, hasMore: page.length > limit, lastKey: last ? list.keyOf(last) : undefined, returned: shown.length };
}
