/**
 * The stream aggregator: folds a batch of survey-response stream records into the day buckets.
 *
 * Per survey, responses are taken in chunks that fit one transaction (≤ 100 items: a marker per
 * response plus each bucket touched). A chunk reads its markers and buckets (one BatchGetItem),
 * folds (fold.ts), then writes every changed bucket and marker in one transaction, each conditional
 * on the `lock` it was read at. So counters and markers move together or not at all: a crash, a
 * replay or a concurrent invocation (another shard holding the same survey's responses) can never
 * count a response twice or half; a lost race re-reads and folds again.
 *
 * Counter writes: one bucket write per chunk, so 1,000 responses to one survey on one day cost about
 * ten bucket writes (batches of ≤ 100 stream records, README "Survey summaries").
 */
import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { conflictBackoff } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { type NamedWrites, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { getVersion } from '../store.ts';
import { DAY_BUCKET_ENTITY } from './buckets.ts';
import { type Catalog, catalogOf } from './catalog.ts';
import { addCounts, type Counts, contributionOf } from './counts.ts';
import { type BucketRef, bucketId, type CountedMarker, foldChanges, type ResponseChange } from './fold.ts';
import type { ResponseRecord } from './stream-records.ts';

const COUNTED_ENTITY = 'SurveyResponseCounted';

/** A removed response's marker outlives every stream record of it (kept 24 h), then expires. */
const TOMBSTONE_SECONDS = 2 * 86_400;
const MAX_TRANSACTION_ITEMS = 100;
const MAX_ATTEMPTS = 8;

type Item = Record<string, unknown>;

// Published versions never change, so their catalogs are cached per instance (a miss is one GetItem).
const catalogs = new Map<string, Catalog>();

async function catalogFor(workspace: string, surveyId: string, versionId: string): Promise<Catalog> {
  const cacheKey = `${workspace}#${surveyId}#${versionId}`;
  const cached = catalogs.get(cacheKey);
  if (cached) return cached;
  const version = await getVersion(workspace, surveyId, versionId);
  // A response always names a version; one that is gone still counts as started/finished.
  if (!version) return {};
  const catalog = catalogOf(version.definition);
  if (version.status !== 'draft') catalogs.set(cacheKey, catalog);
  return catalog;
}

function toMarker(item: Item | undefined): (CountedMarker & { lock: number }) | undefined {
  if (!item) return undefined;
  return {
    revision: item.revision as number,
    removed: item.removed === true,
    bucket: { versionId: item.versionId as string, day: item.day as string },
    contribution: (item.contribution ?? {}) as Counts,
    lock: item.lock as number,
  };
}

async function readItems(keyList: { pk: string; sk: string }[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const item of await getMany(keyList)) if (item) found.set(item.sk as string, item);
  return found;
}

const lockCondition = (item: Item | undefined) =>
  item
    ? {
        ConditionExpression: '#lock = :lock',
        ExpressionAttributeNames: { '#lock': 'lock' },
        ExpressionAttributeValues: { ':lock': item.lock },
      }
    : { ConditionExpression: 'attribute_not_exists(pk)' };

type ChunkOutcome = 'committed' | 'unchanged' | 'lost-race';

/** Reads, folds and writes one chunk of one survey's changes. */
async function tryChunk(workspace: string, surveyId: string, changes: ResponseChange[]): Promise<ChunkOutcome> {
  const responseIds = [...new Set(changes.map((change) => change.responseId))];
  const markerKey = (responseId: string) => keys.surveyResponseCounted(workspace, surveyId, responseId);
  const bucketKey = (bucket: BucketRef) => keys.surveyDayBucket(workspace, surveyId, bucket.day, bucket.versionId);
  const changeBuckets = new Map(changes.map((change) => [bucketId(change.bucket), change.bucket]));

  const items = await readItems([...responseIds.map(markerKey), ...[...changeBuckets.values()].map(bucketKey)]);
  const markers = new Map<string, CountedMarker & { lock: number }>();
  for (const responseId of responseIds) {
    const marker = toMarker(items.get(markerKey(responseId).sk));
    if (marker) markers.set(responseId, marker);
  }
  // A response never changes version or day, so its marker's bucket is its changes' bucket; read any other anyway.
  const strays = [...markers.values()].map((marker) => marker.bucket).filter((bucket) => !changeBuckets.has(bucketId(bucket)));
  if (strays.length > 0) for (const [sk, item] of await readItems(strays.map(bucketKey))) items.set(sk, item);

  const fold = foldChanges(markers, changes);
  if (fold.markers.size === 0 && fold.deltas.size === 0) return 'unchanged';

  const now = Math.floor(Date.now() / 1000);
  const writes: NamedWrites = {};
  for (const { bucket, counts } of fold.deltas.values()) {
    const key = bucketKey(bucket);
    const current = items.get(key.sk);
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
          catalog: await catalogFor(workspace, surveyId, bucket.versionId),
          counts: addCounts({ ...((current?.counts ?? {}) as Counts) }, counts),
          lock: ((current?.lock as number | undefined) ?? 0) + 1,
        },
        ...lockCondition(current),
      },
    };
  }
  for (const [responseId, marker] of fold.markers) {
    const key = markerKey(responseId);
    const current = items.get(key.sk);
    writes[`marker ${responseId}`] = {
      Put: {
        TableName: tableName,
        Item: {
          ...key,
          entity: COUNTED_ENTITY,
          workspace,
          surveyId,
          responseId,
          versionId: marker.bucket.versionId,
          day: marker.bucket.day,
          revision: marker.revision,
          removed: marker.removed,
          contribution: marker.contribution,
          lock: ((current?.lock as number | undefined) ?? 0) + 1,
          ...(marker.removed ? { ttl: now + TOMBSTONE_SECONDS } : {}),
        },
        ...lockCondition(current),
      },
    };
  }
  try {
    // The kit retries lost transaction races itself; a moved lock is a failed condition: re-read and fold again.
    await transact(writes);
    return 'committed';
  } catch (error) {
    if (error instanceof TransactionCancelledError) return 'lost-race';
    throw error;
  }
}

/** Splits one survey's changes into chunks whose markers and buckets fit one transaction. */
function chunksOf(changes: readonly ResponseChange[]): ResponseChange[][] {
  const byResponse = new Map<string, ResponseChange[]>();
  for (const change of changes) {
    const own = byResponse.get(change.responseId);
    if (own) own.push(change);
    else byResponse.set(change.responseId, [change]);
  }
  const chunks: ResponseChange[][] = [];
  let chunk: ResponseChange[] = [];
  let responses = 0;
  let buckets = new Set<string>();
  for (const own of byResponse.values()) {
    const nextBuckets = new Set([...buckets, ...own.map((change) => bucketId(change.bucket))]);
    if (responses + 1 + nextBuckets.size > MAX_TRANSACTION_ITEMS) {
      chunks.push(chunk);
      chunk = [];
      responses = 0;
      buckets = new Set(own.map((change) => bucketId(change.bucket)));
    } else {
      buckets = nextBuckets;
    }
    chunk.push(...own);
    responses += 1;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

async function changeOf(record: ResponseRecord): Promise<ResponseChange> {
  const bucket = { versionId: record.versionId, day: record.day };
  const contribution = record.response
    ? contributionOf(record.response, await catalogFor(record.workspace, record.surveyId, record.versionId))
    : {};
  return { responseId: record.responseId, revision: record.revision, removed: record.response === null, bucket, contribution };
}

export interface AggregationResult {
  /** Bucket transactions committed (what "counter writes per 1,000 responses" counts). */
  transactions: number;
  retries: number;
}

/** Folds the records of one batch into the day buckets; throws when a chunk cannot commit (the batch is retried). */
export async function aggregateResponseRecords(records: readonly ResponseRecord[]): Promise<AggregationResult> {
  const bySurvey = new Map<string, ResponseRecord[]>();
  for (const record of records) {
    const survey = `${record.workspace}#${record.surveyId}`;
    const own = bySurvey.get(survey);
    if (own) own.push(record);
    else bySurvey.set(survey, [record]);
  }
  const result: AggregationResult = { transactions: 0, retries: 0 };
  for (const surveyRecords of bySurvey.values()) {
    const { workspace, surveyId } = surveyRecords[0] as ResponseRecord;
    const changes = await Promise.all(surveyRecords.map(changeOf));
    for (const chunk of chunksOf(changes)) {
      for (let attempt = 1; ; attempt++) {
        const outcome = await tryChunk(workspace, surveyId, chunk);
        if (outcome === 'committed') result.transactions += 1;
        if (outcome !== 'lost-race') break;
        if (attempt >= MAX_ATTEMPTS) throw new Error('Survey summary chunk kept losing races; the batch is retried');
        result.retries += 1;
        await conflictBackoff(attempt);
      }
    }
  }
  return result;
}
