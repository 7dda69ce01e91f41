/**
 * Journeys: the `JOURNEY#<id>` item (metadata, `publishedPairs`, `pairedBy`, and while active a
 * gsi1 listing entry) and the `JOURNEYCOUNT` counter its create and archive keep. Never deleted:
 * DELETE archives it. Reads 1 round trip; create and rename 1; archive 1 read + 1 transaction.
 */

import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Item } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isConditionFailure, type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ConflictError } from '../../platform/errors.ts';
import { encodeContent } from '../codec.ts';
import { emptyJourneyContent } from '../content.ts';
import { journeyArchived, journeyNotFound } from '../errors.ts';
import { JOURNEY_ENTITY, newJourneyId, pairsFromAttribute, storedDiagnostics, toJourney, type VersionMetadata } from '../record.ts';
import type { Journey, JourneyVersion } from '../schemas.ts';
import { assertArchivable, titleChangeRefusal } from '../state-rules.ts';
import { COUNTER_ENTITY } from './items.ts';
import { publishedMetricSurveysOf, unfollowAll } from './metric-follows.ts';
import { distinctJourneys, stopPairingAll } from './pairing.ts';
import { newVersionItem } from './versions.ts';

/** GetItem, strongly consistent; 404 when the workspace has no such journey. */
export async function getJourney(workspace: string, journeyId: string): Promise<Journey> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.journey(workspace, journeyId), ConsistentRead: true }),
  );
  if (!Item) throw journeyNotFound();
  return toJourney(Item);
}

export interface JourneyCreation {
  kind: 'macro' | 'micro';
  titleEn: string | null;
  titleAr: string | null;
  parentJourneyId: string | null;
  stageId: string | null;
}

/**
 * A journey with its first draft (`Draft 1`, empty content) and its count, in one transaction; a
 * micro journey also checks that its parent exists and is not archived, in the same transaction.
 */
export async function createJourney(
  workspace: string,
  creation: JourneyCreation,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: { journeyId: string; version: JourneyVersion }; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const journeyId = newJourneyId(nowMs);
  const content = emptyJourneyContent();
  const encoded = encodeContent(content);
  if (!encoded.ok) throw new Error('empty content must encode');
  const diagnostics = storedDiagnostics([]);
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: 'Draft 1',
    parentVersionId: null,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: null,
    legacyOrigin: null,
  };
  const journeyItem = {
    ...keys.journey(workspace, journeyId),
    ...keys.journeyListing(workspace, journeyId),
    entity: JOURNEY_ENTITY,
    id: journeyId,
    kind: creation.kind,
    titleEn: creation.titleEn ?? undefined,
    titleAr: creation.titleAr ?? undefined,
    parentJourneyId: creation.parentJourneyId ?? undefined,
    stageId: creation.stageId ?? undefined,
    versionCount: 1,
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: keyId,
  };
  const writes: NamedWrites = {
    parent: creation.parentJourneyId
      ? {
          ConditionCheck: {
            TableName: tableName,
            Key: keys.journey(workspace, creation.parentJourneyId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
          },
        }
      : undefined,
    journey: { Put: { TableName: tableName, Item: journeyItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    version: {
      Put: {
        TableName: tableName,
        Item: newVersionItem(workspace, metadata, {
          content: encoded.compressed,
          contentBytes: encoded.rawBytes,
          diagnostics: diagnostics.bytes,
          diagnosticsBytes: diagnostics.rawBytes,
          pairs: [],
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    counter: { Update: { TableName: tableName, Key: keys.journeyCounter(workspace), ...countChange(workspace, creation.kind, 1) } },
  };
  const response = { journeyId, version: { ...metadata, content, diagnostics: diagnostics.kept } };
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
 * match If-Match, and keep at least one title. A failed condition returns the item, which says which.
 */
export async function updateJourneyTitles(
  workspace: string,
  journeyId: string,
  titles: JourneyTitles,
  precondition: VersionPrecondition,
): Promise<Journey> {
  // null removes a title, a string sets it, absent leaves it; a change that sets none must leave one.
  const changes = update().increment('version').set('updatedAt', new Date().toISOString()).patch(titles, JOURNEY_TITLES);
  const kept = JOURNEY_TITLES.filter((field) => titles[field] === undefined).map((field) => `attribute_exists(${field})`);
  const setsATitle = titles.titleEn || titles.titleAr;
  const titleCondition = setsATitle ? '' : ` AND (${kept.length > 0 ? kept.join(' OR ') : 'attribute_not_exists(pk)'})`;
  const version = versionCondition(precondition);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.journey(workspace, journeyId),
        ...changes.build({
          expression: `attribute_exists(pk) AND attribute_not_exists(archivedAt)${version.expression}${titleCondition}`,
          ...(version.expression ? { names: { '#version': 'version' }, values: version.values } : {}),
        }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toJourney(Attributes!);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw titleChangeRefusal(error.Item && unmarshall(error.Item), precondition);
  }
}

/**
 * Archive: the journey leaves the list (its gsi1 entry is removed and the count drops), stops
 * pairing others and lets go of the surveys its published version's metric cells follow (their
 * `keys.surveyMetricBinding` items, the survey publish gate's index), in one transaction: a journey
 * nobody can see or change no longer holds a survey's publish back. Refused while another
 * unarchived journey's published version pairs it (`pairedBy`, kept by publish and archive). One
 * read first, for its pairs and followed surveys. The transaction stays within DynamoDB's 100
 * items: publish keeps paired journeys plus followed surveys at 48 (diagnostics.ts).
 */
export async function archiveJourney(workspace: string, journeyId: string, precondition: VersionPrecondition, attempt = 1): Promise<void> {
  const journey = await getJourneyItem(workspace, journeyId);
  assertArchivable(journey, precondition);
  const at = Number(journey.version);

  const now = new Date().toISOString();
  const unpaired = distinctJourneys(pairsFromAttribute(journey.publishedPairs)).filter((id) => id !== journeyId);
  const followedSurveys = publishedMetricSurveysOf(journey);
  try {
    await transact({
      journey: {
        Update: {
          TableName: tableName,
          Key: keys.journey(workspace, journeyId),
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
              values: { ':read': at },
            }),
        },
      },
      counter: {
        Update: { TableName: tableName, Key: keys.journeyCounter(workspace), ...countChange(workspace, journey.kind as JourneyKind, -1) },
      },
      ...stopPairingAll(workspace, unpaired, journeyId),
      ...unfollowAll(workspace, followedSurveys, journeyId),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('journey')) {
      // The journey changed between the read and the write: decide again on what it is now. With
      // If-Match that answers 409 at once; without, a rename in between is no reason to refuse.
      if (attempt < 3) return archiveJourney(workspace, journeyId, precondition, attempt + 1);
      throw new ConflictError('version_conflict', 'The journey kept changing while archiving it; try again');
    }
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
    const listing = keys.journeyCounterListing(workspace);
    changes.set('entity', COUNTER_ENTITY).set('gsi1pk', listing.gsi1pk).set('gsi1sk', listing.gsi1sk);
  }
  return changes.build();
}

async function getJourneyItem(workspace: string, journeyId: string): Promise<Item> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.journey(workspace, journeyId), ConsistentRead: true }),
  );
  if (!Item) throw journeyNotFound();
  return Item;
}
