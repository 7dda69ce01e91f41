/**
 * Journeys: the `JOURNEY#<id>` item (metadata, `publishedPairs`, `pairedBy`, and while active a
 * gsi1 listing entry) and the `JOURNEYCOUNT` counter its create and archive keep. Never deleted:
 * DELETE archives it. Reads 1 round trip; create and rename 1; archive 1 read + 1 transaction.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Item } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { journeyCounterEntity, journeyEntity } from '../entities.ts';
import { journeyArchived, journeyNotFound } from '../errors.ts';
import { pairsFromAttribute, toJourney, type VersionMetadata } from '../record.ts';
import type { Journey } from '../schemas.ts';
import { publishedMetricSurveysOf, unfollowAll } from './metric-follows.ts';
import { distinctJourneys, stopPairingAll } from './pairing.ts';
import { newVersionItem, type VersionParts } from './versions.ts';

/** GetItem, strongly consistent; 404 when the workspace has no such journey. */
export async function getJourney(workspace: string, journeyId: string): Promise<Journey> {
  const item = await readJourneyItem(workspace, journeyId);
  if (!item) throw journeyNotFound();
  return toJourney(item);
}

export interface JourneyCreation {
  kind: 'macro' | 'micro';
  titleEn: string | null;
  titleAr: string | null;
  parentJourneyId: string | null;
  stageId: string | null;
}

/**
 * A journey, its first draft and its count, in one transaction; a micro journey also checks that
 * its parent exists and is not archived, in the same transaction. `response` is what an
 * Idempotency-Key remembers.
 */
export async function insertJourney<T>(
  workspace: string,
  creation: JourneyCreation,
  draft: { metadata: VersionMetadata; parts: VersionParts },
  response: T,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: T; replayed: boolean }> {
  const { metadata } = draft;
  const journeyId = metadata.journeyId;
  const journeyItem = {
    ...journeyEntity.keys.journey(workspace, journeyId),
    ...journeyEntity.keys.listing(workspace, journeyId),
    entity: journeyEntity.name,
    id: journeyId,
    kind: creation.kind,
    titleEn: creation.titleEn ?? undefined,
    titleAr: creation.titleAr ?? undefined,
    parentJourneyId: creation.parentJourneyId ?? undefined,
    stageId: creation.stageId ?? undefined,
    versionCount: 1,
    version: 1,
    createdAt: metadata.createdAt,
    updatedAt: metadata.createdAt,
    createdBy: metadata.createdBy,
  };
  const writes: NamedWrites = {
    parent: creation.parentJourneyId
      ? {
          ConditionCheck: {
            TableName: tableName,
            Key: journeyEntity.keys.journey(workspace, creation.parentJourneyId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
          },
        }
      : undefined,
    journey: { Put: { TableName: tableName, Item: journeyItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    version: {
      Put: {
        TableName: tableName,
        Item: newVersionItem(workspace, metadata, draft.parts),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    counter: {
      Update: { TableName: tableName, Key: journeyCounterEntity.keys.counter(workspace), ...countChange(workspace, creation.kind, 1) },
    },
  };
  try {
    return await createOnce(workspace, writes, response, idempotency);
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('parent')) {
      throw error.current('parent') ? journeyArchived() : journeyNotFound();
    }
    throw error;
  }
}

export interface JourneyTitles {
  titleEn?: string | null | undefined;
  titleAr?: string | null | undefined;
}

/**
 * Titles in one conditional UpdateItem, no read first: the journey must exist, not be archived,
 * match If-Match, and keep at least one title. A failed condition answers the item as it stood, for
 * the rules (state-rules.ts: titleChangeRefusal) to say which.
 */
export async function updateJourneyTitles(
  workspace: string,
  journeyId: string,
  titles: JourneyTitles,
  precondition: VersionPrecondition,
): Promise<{ journey: Journey; refused?: undefined } | { journey?: undefined; refused: { current: Item | undefined } }> {
  // null removes a title, a string sets it, absent leaves it; a change that sets none must leave one.
  const changes = update().increment('version').set('updatedAt', new Date().toISOString()).patch(titles, JOURNEY_TITLES);
  const kept = JOURNEY_TITLES.filter((field) => titles[field] === undefined).map((field) => `attribute_exists(${field})`);
  const setsATitle = titles.titleEn || titles.titleAr;
  const titleCondition = setsATitle ? '' : ` AND (${kept.length > 0 ? kept.join(' OR ') : 'attribute_not_exists(pk)'})`;
  const version = versionCondition(precondition);
  const { written, refused } = await updateItem({
    TableName: tableName,
    Key: journeyEntity.keys.journey(workspace, journeyId),
    ...changes.build({
      expression: `attribute_exists(pk) AND attribute_not_exists(archivedAt)${version.expression}${titleCondition}`,
      names: version.names,
      values: version.values,
    }),
  });
  return refused ? { refused } : { journey: toJourney(written) };
}

/**
 * Archive, as one transaction at the version `journey` was read at: the journey leaves the list (its
 * gsi1 entry is removed and the count drops), stops pairing others and lets go of the surveys its
 * published version's metric cells follow (their `journeyMetricBindingEntity` items, the survey
 * publish gate's index): a journey nobody can see or change no longer holds a survey's publish back.
 * Its condition also holds that no journey's published version pairs it (`pairedBy`). False when the journey changed since the read. The transaction stays within
 * DynamoDB's 100 items: publish keeps paired journeys plus followed surveys at 48 (diagnostics.ts).
 */
export async function writeArchive(workspace: string, journey: Item): Promise<boolean> {
  const journeyId = journey.id as string;
  const now = new Date().toISOString();
  const unpaired = distinctJourneys(pairsFromAttribute(journey.publishedPairs)).filter((id) => id !== journeyId);
  try {
    await transact({
      journey: {
        Update: {
          TableName: tableName,
          Key: journeyEntity.keys.journey(workspace, journeyId),
          ...update()
            .set('archivedAt', now)
            .set('updatedAt', now)
            .increment('version')
            .remove('gsi1pk')
            .remove('gsi1sk')
            .remove('publishedMetricSurveys')
            .build({
              expression:
                'attribute_exists(pk) AND attribute_not_exists(archivedAt) AND attribute_not_exists(pairedBy) AND #version = :read',
              names: { '#version': 'version' },
              values: { ':read': Number(journey.version) },
            }),
        },
      },
      counter: {
        Update: {
          TableName: tableName,
          Key: journeyCounterEntity.keys.counter(workspace),
          ...countChange(workspace, journey.kind as JourneyKind, -1),
        },
      },
      ...stopPairingAll(workspace, unpaired, journeyId),
      ...unfollowAll(workspace, publishedMetricSurveysOf(journey), journeyId),
    });
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('journey')) return false;
    throw error;
  }
}

type JourneyKind = JourneyCreation['kind'];
const JOURNEY_TITLES = ['titleEn', 'titleAr'] as const;

/**
 * The counter's change for one journey of `kind` made (+1) or archived (-1). Its first write also
 * gives it the gsi1 key that lists it first, before every journey.
 */
function countChange(workspace: string, kind: JourneyKind, by: 1 | -1) {
  const changes = update().add(`${kind}Count`, by);
  if (by > 0) {
    const listing = journeyCounterEntity.keys.listing(workspace);
    changes.set('entity', journeyCounterEntity.name).set('gsi1pk', listing.gsi1pk).set('gsi1sk', listing.gsi1sk);
  }
  return changes.build();
}

/** The journey's item as stored (one strongly consistent GetItem), for the rules to judge; undefined when the workspace has none. */
export async function readJourneyItem(workspace: string, journeyId: string): Promise<Item | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: journeyEntity.keys.journey(workspace, journeyId), ConsistentRead: true }),
  );
  return Item;
}
