/**
 * What the stream aggregator (../aggregator.ts) counted: a marker per response (its revision, bucket
 * and contribution, ../entities.ts `countedMarkerEntity`) and the day buckets it moved, read together and
 * written together.
 *   readCountedChunk  BatchGetItem of a chunk's markers and buckets (and the markers' own buckets not
 *                     asked for, in a second one): the markers as the fold reads them
 *   writeCountedChunk one transaction of every changed bucket and marker, each conditional on the
 *                     `lock` it was read at: 'committed', 'lost-race' (a lock moved: read and fold
 *                     again) or 'too-large' (more than one transaction holds)
 *
 * Until migration 002 has finished (../../responses/store/layout.ts), a marker is also looked for at its
 * legacy key, and moved to its new key by the transaction that next changes it; and a legacy response
 * item's removal is told apart from a move by whether the response is at its new key.
 */
import { getMany } from '../../../platform/data/batch.ts';
import { tableName } from '../../../platform/data/client.ts';
import { type NamedWrites, TransactionCancelledError, transact } from '../../../platform/data/transact.ts';
import { surveyResponseEntity } from '../../responses/entities.ts';
import { responseLayout } from '../../responses/store/layout.ts';
import type { Catalog } from '../catalog.ts';
import { addCounts, type Counts } from '../counts.ts';
import { countedMarkerEntity, dayBucketEntity } from '../entities.ts';
import { type BucketRef, bucketId, type CountedMarker, type Fold } from '../fold.ts';
import { DAY_BUCKET_ENTITY } from './buckets.ts';

const COUNTED_ENTITY = 'SurveyResponseCounted';

/** A removed response's marker outlives every stream record of it (kept 24 h), then expires. */
const TOMBSTONE_SECONDS = 2 * 86_400;
/** DynamoDB's largest transaction: a chunk's markers and buckets must fit it. */
export const MAX_TRANSACTION_ITEMS = 100;

type Item = Record<string, unknown>;

/** A chunk as read: the markers the fold reads, and the items as read, whose locks the write is conditional on. */
export interface CountedChunk {
  workspace: string;
  surveyId: string;
  /** What was counted of each response (absent: never counted). */
  markers: Map<string, CountedMarker>;
  /** Of the legacy removals asked about, the responses that are at their new key: moved, not deleted. */
  moved: Set<string>;
  /** The items as read, by table key. */
  items: Map<string, Item>;
  /** The marker items as read, at whichever key held them. */
  markerItems: Map<string, { item: Item; legacy: boolean }>;
}

const itemId = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;

async function readItems(keyList: { pk: string; sk: string }[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const item of await getMany(keyList)) if (item) found.set(`${item.pk as string}\u0000${item.sk as string}`, item);
  return found;
}

function toMarker(item: Item | undefined): CountedMarker | undefined {
  if (!item) return undefined;
  const shard = item.shard;
  return {
    revision: item.revision as number,
    removed: item.removed === true,
    bucket: { versionId: item.versionId as string, day: item.day as string, ...(typeof shard === 'number' ? { shard } : {}) },
    contribution: (item.contribution ?? {}) as Counts,
  };
}

const lockCondition = (item: Item | undefined) =>
  item
    ? {
        ConditionExpression: '#lock = :lock',
        ExpressionAttributeNames: { '#lock': 'lock' },
        ExpressionAttributeValues: { ':lock': item.lock },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };

const markerKey = (workspace: string, surveyId: string, responseId: string) =>
  countedMarkerEntity.keys.marker(workspace, surveyId, responseId);
const legacyMarkerKey = (workspace: string, surveyId: string, responseId: string) =>
  countedMarkerEntity.keys.legacy(workspace, surveyId, responseId);
const bucketKey = (workspace: string, surveyId: string, bucket: BucketRef) =>
  dayBucketEntity.keys.bucket(workspace, surveyId, bucket.day, bucket.versionId, bucket.shard);

/**
 * The markers of `responseIds`, the `buckets` the chunk's changes go to and those its markers are in,
 * and which of `legacyRemovals` were moved rather than deleted.
 */
export async function readCountedChunk(
  workspace: string,
  surveyId: string,
  chunk: { responseIds: readonly string[]; legacyRemovals: readonly string[]; buckets: readonly BucketRef[] },
): Promise<CountedChunk> {
  const { responseIds, legacyRemovals } = chunk;
  const legacy = responseLayout.pending;
  const probe = responseLayout.due();

  const items = await readItems([
    ...responseIds.map((responseId) => markerKey(workspace, surveyId, responseId)),
    ...(legacy ? responseIds.map((responseId) => legacyMarkerKey(workspace, surveyId, responseId)) : []),
    ...legacyRemovals.map((responseId) => surveyResponseEntity.keys.response(workspace, surveyId, responseId)),
    ...chunk.buckets.map((bucket) => bucketKey(workspace, surveyId, bucket)),
    ...(probe ? [probe] : []),
  ]);
  if (probe) responseLayout.settle(items.get(itemId(probe)));
  const moved = new Set(
    legacyRemovals.filter((responseId) => items.has(itemId(surveyResponseEntity.keys.response(workspace, surveyId, responseId)))),
  );

  const markers = new Map<string, CountedMarker>();
  const markerItems = new Map<string, { item: Item; legacy: boolean }>();
  for (const responseId of responseIds) {
    const current = items.get(itemId(markerKey(workspace, surveyId, responseId)));
    const old = legacy ? items.get(itemId(legacyMarkerKey(workspace, surveyId, responseId))) : undefined;
    const found = current ? { item: current, legacy: false } : old ? { item: old, legacy: true } : undefined;
    const marker = toMarker(found?.item);
    if (found && marker) {
      markers.set(responseId, marker);
      markerItems.set(responseId, found);
    }
  }
  // Responses counted before stay in their bucket (fold.ts): read those buckets too.
  const strays = [...markers.values()]
    .map((marker) => marker.bucket)
    .filter((bucket) => !items.has(itemId(bucketKey(workspace, surveyId, bucket))));
  const unseen = [...new Map(strays.map((bucket) => [bucketId(bucket), bucket])).values()];
  if (unseen.length > 0) {
    for (const [id, item] of await readItems(unseen.map((bucket) => bucketKey(workspace, surveyId, bucket)))) items.set(id, item);
  }
  return { workspace, surveyId, markers, moved, items, markerItems };
}

/**
 * Writes a fold of `read` in one transaction, each bucket and marker conditional on the lock it was
 * read at; a bucket written for the first time holds its version's catalog (`catalogOf`).
 */
export async function writeCountedChunk(
  read: CountedChunk,
  fold: Fold,
  catalogOf: (versionId: string) => Promise<Catalog>,
): Promise<'committed' | 'lost-race' | 'too-large'> {
  const { workspace, surveyId, items, markerItems } = read;
  const now = Math.floor(Date.now() / 1000);
  const writes: NamedWrites = {};
  for (const { bucket, counts } of fold.deltas.values()) {
    const key = bucketKey(workspace, surveyId, bucket);
    const current = items.get(itemId(key));
    writes[`bucket ${bucketId(bucket)}`] = {
      Put: {
        TableName: tableName,
        Item: {
          ...key,
          entity: DAY_BUCKET_ENTITY,
          workspace,
          surveyId,
          versionId: bucket.versionId,
          day: bucket.day,
          ...(bucket.shard === undefined ? {} : { shard: bucket.shard }),
          catalog: await catalogOf(bucket.versionId),
          counts: addCounts({ ...((current?.counts ?? {}) as Counts) }, counts),
          lock: ((current?.lock as number | undefined) ?? 0) + 1,
        },
        ...lockCondition(current),
      },
    };
  }
  for (const [responseId, marker] of fold.markers) {
    const found = markerItems.get(responseId);
    writes[`marker ${responseId}`] = {
      Put: {
        TableName: tableName,
        Item: {
          ...markerKey(workspace, surveyId, responseId),
          entity: COUNTED_ENTITY,
          workspace,
          surveyId,
          responseId,
          versionId: marker.bucket.versionId,
          day: marker.bucket.day,
          ...(marker.bucket.shard === undefined ? {} : { shard: marker.bucket.shard }),
          revision: marker.revision,
          removed: marker.removed,
          contribution: marker.contribution,
          lock: ((found?.item.lock as number | undefined) ?? 0) + 1,
          ...(marker.removed ? { ttl: now + TOMBSTONE_SECONDS } : {}),
        },
        // A marker still at its legacy key moves to its new one here (the migration moves the rest).
        ...lockCondition(found?.legacy ? undefined : found?.item),
      },
    };
    if (found?.legacy) {
      writes[`legacy marker ${responseId}`] = {
        Delete: { TableName: tableName, Key: legacyMarkerKey(workspace, surveyId, responseId), ...lockCondition(found.item) },
      };
    }
  }
  if (Object.keys(writes).length > MAX_TRANSACTION_ITEMS) return 'too-large';
  try {
    // The kit retries lost transaction races itself; a moved lock is a failed condition: re-read and fold again.
    await transact(writes);
    return 'committed';
  } catch (error) {
    if (error instanceof TransactionCancelledError) return 'lost-race';
    throw error;
  }
}
