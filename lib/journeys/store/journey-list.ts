/**
 * The list of active journeys: their gsi1 entries, newest first, after the `JOURNEYCOUNT` counter
 * that gives the total in the same Query (lib/platform/pagination.ts for offsets and cursors).
 */

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { toJourney } from '../record.ts';
import type { Journey } from '../schemas.ts';
import { COUNTER_ENTITY, type Item, MAX_ITEMS_PER_QUERY } from './items.ts';

export interface JourneyPage {
  journeys: Journey[];
  total: number;
  hasMore: boolean;
  /** Where a cursor continues (lib/platform/pagination.ts): the last journey's table and gsi1 keys. */
  lastKey: PageKey | undefined;
  returned: number;
}

/** A listed journey's table and gsi1 keys, which a gsi1 Query's ExclusiveStartKey needs. */
function listingKeyOf(item: Item | undefined): PageKey | undefined {
  return item && { pk: item.pk as string, sk: item.sk as string, gsi1pk: item.gsi1pk as string, gsi1sk: item.gsi1sk as string };
}

/** The total the filter selects, from the counter item's two counts. */
function journeyTotal(counter: Item | undefined, kind: 'macro' | 'micro' | undefined): number {
  const macro = Number(counter?.macroCount ?? 0);
  const micro = Number(counter?.microCount ?? 0);
  return Math.max(0, kind === 'macro' ? macro : kind === 'micro' ? micro : macro + micro);
}

/**
 * Active journeys, newest first, from gsi1 (archived ones leave it). The counter sorts first in
 * the descending range and gives the total in the same Query; a `kind` filter is applied by
 * DynamoDB, so skipping to an offset reads the journeys of the other kind too.
 */
export async function listJourneys(
  workspace: string,
  { limit, offset, after, kind }: PageStart & { kind?: 'macro' | 'micro' | undefined },
): Promise<JourneyPage> {
  if (after) return listJourneysAfter(workspace, limit, after, kind);
  const wanted = offset + limit + 1;
  const counterSk = keys.journeyCounterListing(workspace).gsi1sk;
  let total: number | undefined;
  let skipped = 0;
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: {
          ':pk': keys.journeyListingPk(workspace),
          ...(kind ? { ':kind': kind, ':counter': COUNTER_ENTITY } : {}),
        },
        // The counter must pass the filter too (an index key cannot appear in a filter, so its entity is used).
        ...(kind ? { FilterExpression: '#kind = :kind OR entity = :counter', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
        ScanIndexForward: false,
        Limit: Math.min(wanted - skipped - page.length + (total === undefined ? 1 : 0), MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (item.gsi1sk === counterSk) total = journeyTotal(item, kind);
      else if (skipped < offset) skipped++;
      else if (page.length < limit + 1) page.push(item);
    }
    total ??= 0; // no counter first means no journey was ever made
    cursor = LastEvaluatedKey;
    if (offset >= total) break;
  } while (cursor && skipped + page.length < wanted);
  const shown = page.slice(0, limit);
  return {
    journeys: shown.map(toJourney),
    total,
    hasMore: page.length > limit,
    lastKey: listingKeyOf(shown.at(-1)),
    returned: shown.length,
  };
}

/**
 * The page after a cursor's journey: gsi1 from that key on, `limit + 1` journeys the filter selects
 * (the extra one tells whether more follow), and the counter read beside it for the total.
 */
async function listJourneysAfter(
  workspace: string,
  limit: number,
  after: PageKey,
  kind: 'macro' | 'micro' | undefined,
): Promise<JourneyPage> {
  if (after.gsi1pk !== keys.journeyListingPk(workspace) || after.pk !== keys.workspacePk(workspace)) {
    throw new Error("A cursor for journeys named a key outside the workspace's journey listing");
  }
  const counter = dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.journeyCounter(workspace), ProjectionExpression: 'macroCount, microCount' }),
  );
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined = after;
  do {
    const { Items = [], LastEvaluatedKey }: { Items?: Item[]; LastEvaluatedKey?: Record<string, unknown> } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.journeyListingPk(workspace), ...(kind ? { ':kind': kind } : {}) },
        ...(kind ? { FilterExpression: '#kind = :kind', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
        ScanIndexForward: false,
        // Below a journey's key there is no counter: every item read is a journey (the filter may drop some).
        Limit: limit + 1 - page.length,
        ExclusiveStartKey: cursor,
      }),
    );
    page.push(...Items);
    cursor = LastEvaluatedKey;
  } while (cursor && page.length < limit + 1);
  const shown = page.slice(0, limit);
  return {
    journeys: shown.map(toJourney),
    total: journeyTotal((await counter).Item, kind),
    hasMore: page.length > limit,
    lastKey: listingKeyOf(shown.at(-1)),
    returned: shown.length,
  };
}
