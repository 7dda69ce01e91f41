/**
 * The survey-response layout of issue 32 (lib/surveys/responses/entities.ts, legacy-layout.ts): moves what
 * the layout before it wrote, and gives every survey its collecting copies.
 *
 * One Scan of the table, page by page (PAGE_ITEMS evaluated per page, a checkpoint after each), filtered
 * to the kinds of item it changes. Each change is one conditional write, so one done twice changes
 * nothing, and one that meets a concurrent write (a continuation moving the same response, the
 * aggregator moving a marker, a publish writing the copies) reads the item again and tries once more,
 * or finds there is nothing left to do:
 *   a legacy response   one transaction: Put at its new key (if absent), Delete the legacy item (if
 *                       still at the revision read), and its count moved from the counter the legacy rule
 *                       kept it in to its range's (counters.ts); same attributes, revision and times, so
 *                       totals, summary and feed position do not change (stream readers see a move)
 *   a legacy marker     one transaction: Put at its new key (if absent), Delete at the legacy key (if
 *                       still at the lock read)
 *   a tombstone         one UpdateItem of its feed key (if still the legacy one)
 *   a survey            one transaction: its 32 collecting copies, on condition that the survey is
 *                       still at the version read
 * Counter items and summary buckets keep their keys: a total sums every counter item, and a summary
 * adds every bucket of its days.
 */
import { GetCommand, ScanCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure, transactionCancellationReasons } from '../../platform/data/conditions.ts';
import { COPY_ENTITY, fullCopy } from '../../surveys/collecting-state.ts';
import { collectingStateEntity, SURVEY_COLLECTING_COPIES } from '../../surveys/entities.ts';
import { toSurvey } from '../../surveys/record.ts';
import { COUNTER_ENTITY, counterShardOf, countMoves, legacyCounterShardOf } from '../../surveys/responses/counters.ts';
import { responseCounterEntity } from '../../surveys/responses/entities.ts';
import {
  isLegacyMarkerKey,
  isLegacyResponseKey,
  movedMarkerItem,
  movedResponseItem,
  RESPONSE_LAYOUT_MIGRATION_ID,
  tombstoneFeedKey,
} from '../../surveys/responses/legacy-layout.ts';
import type { TableClient } from '../table-client.ts';
import { add, type Migration, type MigrationContext } from './migration.ts';

type Item = Record<string, unknown>;

/** Items evaluated per Scan page: a checkpoint after each, so an interrupted run repeats at most this many. */
const PAGE_ITEMS = 100;
/** Changes written at once within a page (each waits for the write rate). */
const PARALLEL = 8;
/** Tries of one item that keeps meeting concurrent writes. */
const ATTEMPTS = 3;

const RESPONSE = 'SurveyResponse';
const MARKER = 'SurveyResponseCounted';
const TOMBSTONE = 'SurveyResponseTombstone';
const SURVEY = 'Survey';

type Change = 'response' | 'marker' | 'tombstone' | 'survey';

/** What this migration changes about an item, if anything. */
function changeOf(item: Item): Change | null {
  const sk = String(item.sk);
  if (item.entity === RESPONSE && isLegacyResponseKey(sk)) return 'response';
  if (item.entity === MARKER && isLegacyMarkerKey(sk)) return 'marker';
  if (item.entity === TOMBSTONE && tombstoneFeedKey(item) !== null) return 'tombstone';
  if (item.entity === SURVEY && sk.startsWith('SURVEY#')) return 'survey';
  return null;
}

async function read(store: TableClient, item: Item): Promise<Item | undefined> {
  const { Item: current } = await store.db.send(
    new GetCommand({ TableName: store.table, Key: { pk: item.pk, sk: item.sk }, ConsistentRead: true }),
  );
  return current;
}

/** A transaction that may be cancelled by a failed condition: false then (the caller reads again). */
async function transact(store: TableClient, items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<boolean> {
  try {
    await store.db.send(new TransactWriteCommand({ TransactItems: items }));
    return true;
  } catch (error) {
    if (transactionCancellationReasons(error) !== null) return false;
    throw error;
  }
}

/** Its count, from the counter the legacy rule kept it in to its range's (counters.ts): per-range counts stay exact. */
function countMoved(store: TableClient, legacy: Item) {
  const id = legacy.id as string;
  const status = legacy.status as 'partial' | 'finished';
  const moves = countMoves(legacy.versionId as string, { shard: legacyCounterShardOf(id), status }, { shard: counterShardOf(id), status });
  return [...moves].map(([shard, changes]) => ({
    Update: {
      TableName: store.table,
      Key: responseCounterEntity.keys.counter(String(legacy.pk).slice('WS#'.length), legacy.surveyId as string, shard),
      UpdateExpression: `SET entity = :entity, surveyId = :survey ADD ${[...changes.keys()].map((_, i) => `#c${i} :c${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries([...changes.keys()].map((attribute, i) => [`#c${i}`, attribute])),
      ExpressionAttributeValues: {
        ':entity': COUNTER_ENTITY,
        ':survey': legacy.surveyId,
        ...Object.fromEntries([...changes.values()].map((delta, i) => [`:c${i}`, delta])),
      },
    },
  }));
}

async function moveResponse(store: TableClient, legacy: Item): Promise<boolean> {
  return transact(store, [
    ...countMoved(store, legacy),
    { Put: { TableName: store.table, Item: movedResponseItem(legacy), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Delete: {
        TableName: store.table,
        Key: { pk: legacy.pk, sk: legacy.sk },
        ConditionExpression: 'revision = :revision',
        ExpressionAttributeValues: { ':revision': legacy.revision },
      },
    },
  ]);
}

/** `item`'s key, on condition that its `attribute` still holds the value read (no writer came in between). */
function stillAsRead(store: TableClient, item: Item, attribute: 'lock' | 'version') {
  return {
    TableName: store.table,
    Key: { pk: item.pk, sk: item.sk },
    ConditionExpression: `#${attribute} = :${attribute}`,
    ExpressionAttributeNames: { [`#${attribute}`]: attribute },
    ExpressionAttributeValues: { [`:${attribute}`]: item[attribute] },
  };
}

async function moveMarker(store: TableClient, legacy: Item): Promise<boolean> {
  return transact(store, [
    { Put: { TableName: store.table, Item: movedMarkerItem(legacy), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: stillAsRead(store, legacy, 'lock') },
  ]);
}

async function moveTombstoneEntry(store: TableClient, tombstone: Item): Promise<boolean> {
  try {
    await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: { pk: tombstone.pk, sk: tombstone.sk },
        UpdateExpression: 'SET gsi1pk = :feed',
        ConditionExpression: 'gsi1pk = :was',
        ExpressionAttributeValues: { ':feed': tombstoneFeedKey(tombstone), ':was': tombstone.gsi1pk },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function writeCopies(store: TableClient, surveyItem: Item): Promise<boolean> {
  const survey = toSurvey(surveyItem);
  const copy = fullCopy(survey);
  const workspace = String(surveyItem.pk).slice('WS#'.length);
  const copies = Array.from({ length: SURVEY_COLLECTING_COPIES }, (_, index) => ({
    Update: {
      TableName: store.table,
      Key: collectingStateEntity.keys.copy(workspace, survey.id, index),
      UpdateExpression: `SET entity = :entity, surveyId = :survey, #status = :status, rulesDigest = :rules${
        copy.publishedVersionId ? ', publishedVersionId = :published' : ' REMOVE publishedVersionId'
      }`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':entity': COPY_ENTITY,
        ':survey': survey.id,
        ':status': copy.status,
        ':rules': copy.rulesDigest,
        ...(copy.publishedVersionId ? { ':published': copy.publishedVersionId } : {}),
      },
    },
  }));
  return transact(store, [{ ConditionCheck: stillAsRead(store, surveyItem, 'version') }, ...copies]);
}

const WRITES: Record<
  Change,
  { write: (store: TableClient, item: Item) => Promise<boolean>; items: number; done: string; would: string; gone: string }
> = {
  response: {
    write: moveResponse,
    items: 4,
    done: 'responses moved',
    would: 'responses to move',
    gone: 'responses moved or deleted meanwhile',
  },
  marker: { write: moveMarker, items: 2, done: 'markers moved', would: 'markers to move', gone: 'markers moved meanwhile' },
  tombstone: {
    write: moveTombstoneEntry,
    items: 1,
    done: 'tombstone feed entries moved',
    would: 'tombstone feed entries to move',
    gone: 'tombstones expired meanwhile',
  },
  survey: {
    write: writeCopies,
    items: 1 + SURVEY_COLLECTING_COPIES,
    done: 'surveys given collecting copies',
    would: 'surveys to give collecting copies',
    gone: 'surveys gone',
  },
};

/** Changes one item, reading it again when a concurrent write got there first. */
async function migrateItem(context: MigrationContext, scanned: Item, change: Change): Promise<void> {
  const { write, items, done, gone } = WRITES[change];
  let item: Item | undefined = scanned;
  for (let attempt = 1; item && changeOf(item) === change; attempt++) {
    await context.rate.take(items);
    if (await write(context.store, item)) {
      add(context.counts, done);
      return;
    }
    if (attempt >= ATTEMPTS) throw new Error(`${change} ${String(item.sk)} kept changing while it was migrated; run cxctl migrate again`);
    item = await read(context.store, item);
  }
  // Moved, deleted or already as wanted by someone else since the Scan read it: nothing left to do.
  add(context.counts, gone);
}

export const surveyResponseShards: Migration = {
  id: RESPONSE_LAYOUT_MIGRATION_ID,
  title: 'Survey responses in 64 ranges, their change feed under 16 keys, markers at hashed keys, collecting copies',
  changes: [
    "SURVEYRESPONSE#<survey>#<id> → SURVEYRESP#<survey>#<shard>#<id> (one of 64 ranges), its change-feed entry under one of 16 keys, its count into its range's counter",
    'SURVEYCOUNTED#<survey>#<id> → SURVEYCOUNTED#<survey>#<hash>#<id>',
    "a tombstone's change-feed entry → one of the 16 feed keys",
    'every survey: 32 copies of its collecting state (SURVEYSTATE#<survey>#<nn>)',
  ],
  async run(context: MigrationContext): Promise<boolean> {
    let startKey = context.dryRun ? undefined : context.resumeFrom;
    do {
      const page = await context.store.db.send(
        new ScanCommand({
          TableName: context.store.table,
          Limit: PAGE_ITEMS,
          ExclusiveStartKey: startKey,
          FilterExpression: 'begins_with(sk, :responses) OR begins_with(sk, :markers) OR begins_with(sk, :tombstones) OR entity = :survey',
          ExpressionAttributeValues: {
            ':responses': 'SURVEYRESPONSE#',
            ':markers': 'SURVEYCOUNTED#',
            ':tombstones': 'SURVEYRESPONSETOMB#',
            ':survey': SURVEY,
          },
        }),
      );
      add(context.counts, 'items scanned', page.ScannedCount ?? 0);
      const work = (page.Items ?? []).flatMap((item) => {
        const change = changeOf(item);
        return change ? [{ item, change }] : [];
      });
      if (context.dryRun) {
        for (const { change } of work) add(context.counts, WRITES[change].would);
      } else {
        for (let i = 0; i < work.length; i += PARALLEL) {
          await Promise.all(work.slice(i, i + PARALLEL).map(({ item, change }) => migrateItem(context, item, change)));
        }
      }
      startKey = page.LastEvaluatedKey;
      if (!(await context.step(startKey))) return false;
    } while (startKey);
    return true;
  },
};
