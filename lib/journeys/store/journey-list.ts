/**
 * The list of active journeys: their gsi1 entries, newest first, after the `JOURNEYCOUNT` counter
 * that gives the total in the same Query (lib/platform/pagination.ts for offsets and cursors).
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { counted, walkCountedList } from '../../platform/data/list-walk.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { journeyCounterEntity, journeyEntity } from '../entities.ts';
import { toJourney } from '../record.ts';
import type { Journey } from '../schemas.ts';
import type { JourneyCreation } from './journeys.ts';

type JourneyKind = JourneyCreation['kind'];

export interface JourneyPage {
  journeys: Journey[];
  total: number;
  hasMore: boolean;
  /** Where a cursor continues (lib/platform/pagination.ts): the last journey's table and gsi1 keys. */
  lastKey: PageKey | undefined;
  returned: number;
}

/** The total the filter selects, from the counter item's two counts. */
function journeyTotal(counter: Item | undefined, kind: JourneyKind | undefined): number {
  const macro = Number(counter?.macroCount ?? 0);
  const micro = Number(counter?.microCount ?? 0);
  return Math.max(0, kind === 'macro' ? macro : kind === 'micro' ? micro : macro + micro);
}

/**
 * Active journeys, newest first, from gsi1 (archived ones leave it), on the platform's counted
 * list walk. The counter sorts first in the descending range and gives the total in the same
 * Query; a `kind` filter is applied by DynamoDB (the counter passes it too: an index key cannot
 * appear in a filter, so its entity is used), so skipping to an offset reads the journeys of the
 * other kind too. From a cursor the counter is read beside the page.
 */
export async function readJourneyPage(
  workspace: string,
  { kind, ...start }: PageStart & { kind?: JourneyKind | undefined },
): Promise<JourneyPage> {
  const listingPk = journeyEntity.keys.listingPk(workspace);
  const counterSk = journeyCounterEntity.keys.listing(workspace).gsi1sk;
  const page = await walkCountedList(
    {
      query: {
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': listingPk, ...(kind ? { ':kind': kind, ':counter': journeyCounterEntity.name } : {}) },
        ...(kind ? { FilterExpression: '#kind = :kind OR entity = :counter', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
        ScanIndexForward: false,
      },
      isCounter: (item) => item.gsi1sk === counterSk,
      totalOf: ([counter]) => journeyTotal(counter, kind),
      readCounters: async () =>
        counted(
          (
            await dynamo.send(
              new GetCommand({
                TableName: tableName,
                Key: journeyCounterEntity.keys.counter(workspace),
                ProjectionExpression: 'macroCount, microCount',
              }),
            )
          ).Item,
        ),
      cursorInRange: (after) => after.gsi1pk === listingPk && after.pk === workspacePk(workspace),
      // A gsi1 Query's ExclusiveStartKey needs the table and the index keys.
      keyOf: (item) => ({ pk: item.pk as string, sk: item.sk as string, gsi1pk: item.gsi1pk as string, gsi1sk: item.gsi1sk as string }),
    },
    start,
  );
  const { items, ...rest } = page;
  return { ...rest, journeys: items.map(toJourney) };
}
