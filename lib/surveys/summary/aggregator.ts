/**
 * The stream aggregator: folds a batch of survey-response stream records into the day buckets.
 *
 * Per survey, responses are taken in chunks that fit one transaction (≤ 100 items: a marker per
 * response plus each bucket touched). A chunk reads its markers and buckets, folds (fold.ts), then
 * writes every changed bucket and marker together (store/counted-markers.ts), each conditional on
 * what was read. So counters and markers move together or not at all: a crash, a replay or a
 * concurrent invocation (another shard holding the same survey's responses) can never count a
 * response twice or half; a lost race re-reads and folds again.
 *
 * Where the writes land: a marker per response, at a key hashed from the response id (entities.ts), so
 * markers never pile up at the end of one range; one bucket write per chunk, into this instance's
 * bucket of the day (`bucketShard`), so the dozens of instances AWS runs at 5,000 writes a second (one
 * per stream shard) do not all write, and race for, one item. A quiet survey keeps one bucket a day.
 *
 * Until migration 002 has finished, a legacy response item's removal is counted only when the
 * response is not at its new key (else it was moved, not deleted): the store says which were moved.
 */
import { randomInt } from 'node:crypto';
import { conflictBackoff } from '../../platform/data/conditions.ts';
import { findVersion } from '../store/versions.ts';
import { type Catalog, catalogOf } from './catalog.ts';
import { contributionOf } from './counts.ts';
import { DAY_BUCKET_SHARDS } from './entities.ts';
import { bucketId, type ResponseChange as FoldedChange, foldChanges } from './fold.ts';
import { MAX_TRANSACTION_ITEMS, readCountedChunk, writeCountedChunk } from './store/counted-markers.ts';
import type { ResponseRecord } from './stream-records.ts';

const MAX_ATTEMPTS = 8;

/** A change as the aggregator reads it: also whether it is a legacy item's removal (stream-records.ts). */
type ResponseChange = FoldedChange & { legacyRemoval: boolean };

// Published versions never change, so their catalogs are cached per instance (a miss is one GetItem).
// The promise is cached, so a batch asking for one version many times at once reads it once.
const catalogs = new Map<string, Promise<Catalog>>();

async function readCatalog(workspace: string, surveyId: string, versionId: string): Promise<{ catalog: Catalog; final: boolean }> {
  const version = await findVersion(workspace, surveyId, versionId);
  // A response always names a version; one that is gone still counts as started/finished.
  if (!version) return { catalog: {}, final: false };
  return { catalog: catalogOf(version.definition), final: version.status !== 'draft' };
}

function catalogFor(workspace: string, surveyId: string, versionId: string): Promise<Catalog> {
  const cacheKey = `${workspace}#${surveyId}#${versionId}`;
  let cached = catalogs.get(cacheKey);
  if (!cached) {
    const read = readCatalog(workspace, surveyId, versionId);
    cached = read.then(({ catalog }) => catalog);
    catalogs.set(cacheKey, cached);
    // Only what can never change stays cached; a failed read or a draft is read again next time.
    read.then(
      ({ final }) => {
        if (!final) catalogs.delete(cacheKey);
      },
      () => catalogs.delete(cacheKey),
    );
  }
  return cached;
}

/**
 * Which of a day's buckets this instance writes new responses into: picked at random when the
 * instance starts, and again after it loses a race, so the aggregator's concurrent instances (one
 * per stream shard: dozens at 5,000 writes a second) mostly write different items, while a quiet
 * survey keeps one bucket a day. A response stays in the bucket it was first counted in (fold.ts).
 */
let bucketShard = randomInt(DAY_BUCKET_SHARDS);

type ChunkOutcome = 'committed' | 'unchanged' | 'lost-race' | 'too-large';

/** Reads, folds and writes one chunk of one survey's changes. */
async function tryChunk(workspace: string, surveyId: string, chunk: ResponseChange[]): Promise<ChunkOutcome> {
  // New responses go to this instance's bucket of their day and version.
  let changes = chunk.map((change) => ({ ...change, bucket: { ...change.bucket, shard: bucketShard } }));
  const read = await readCountedChunk(workspace, surveyId, {
    responseIds: [...new Set(chunk.map((change) => change.responseId))],
    // A legacy item's removal counts only if the response is not at its new key: otherwise it moved.
    legacyRemovals: [...new Set(chunk.filter((change) => change.legacyRemoval).map((change) => change.responseId))],
    buckets: [...new Map(changes.map((change) => [bucketId(change.bucket), change.bucket])).values()],
  });
  changes = changes.filter((change) => !(change.legacyRemoval && read.moved.has(change.responseId)));

  const fold = foldChanges(read.markers, changes);
  if (fold.markers.size === 0 && fold.deltas.size === 0) return 'unchanged';
  return writeCountedChunk(read, fold, (versionId) => catalogFor(workspace, surveyId, versionId));
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
  return {
    responseId: record.responseId,
    revision: record.revision,
    removed: record.response === null,
    legacyRemoval: record.legacyRemoval,
    bucket,
    contribution,
  };
}

/** The responses of a chunk split in two halves (a response's changes stay together). */
function halves(chunk: ResponseChange[]): [ResponseChange[], ResponseChange[]] {
  const ids = [...new Set(chunk.map((change) => change.responseId))];
  const first = new Set(ids.slice(0, Math.ceil(ids.length / 2)));
  return [chunk.filter((change) => first.has(change.responseId)), chunk.filter((change) => !first.has(change.responseId))];
}

/**
 * Commits one chunk, re-reading after a lost race. A chunk whose read or transaction times out (a
 * throttled or overloaded table: 100 items are DynamoDB's largest transaction) is split in two and
 * each half written on its own, down to single responses: counter writes grow only while it struggles.
 */
async function writeChunk(workspace: string, surveyId: string, chunk: ResponseChange[], result: AggregationResult): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    let outcome: ChunkOutcome;
    let timeout: Error | undefined;
    try {
      outcome = await tryChunk(workspace, surveyId, chunk);
    } catch (error) {
      if ((error as { name?: string })?.name !== 'TimeoutError') throw error;
      timeout = error as Error;
      outcome = 'too-large';
    }
    if (outcome === 'too-large') {
      // Timed out, or its buckets and markers do not fit one transaction: each half on its own.
      const [first, second] = halves(chunk);
      if (second.length === 0) {
        // One response is left, so there is nothing to split: say which of the two it was.
        if (timeout) {
          throw new Error(`A survey summary read or transaction of one response timed out (${timeout.message}); the batch is retried`, {
            cause: timeout,
          });
        }
        throw new Error('One response does not fit a summary transaction');
      }
      result.splits += 1;
      await writeChunk(workspace, surveyId, first, result);
      await writeChunk(workspace, surveyId, second, result);
      return;
    }
    if (outcome === 'committed') result.transactions += 1;
    if (outcome !== 'lost-race') return;
    if (attempt >= MAX_ATTEMPTS) throw new Error('Survey summary chunk kept losing races; the batch is retried');
    result.retries += 1;
    // Another instance writes this bucket too: move to another one.
    bucketShard = randomInt(DAY_BUCKET_SHARDS);
    await conflictBackoff(attempt);
  }
}

export interface AggregationResult {
  /** Bucket transactions committed (what "counter writes per 1,000 responses" counts). */
  transactions: number;
  retries: number;
  /** Chunks split after a timeout. */
  splits: number;
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
  const result: AggregationResult = { transactions: 0, retries: 0, splits: 0 };
  for (const surveyRecords of bySurvey.values()) {
    const { workspace, surveyId } = surveyRecords[0] as ResponseRecord;
    const changes = await Promise.all(surveyRecords.map(changeOf));
    for (const chunk of chunksOf(changes)) await writeChunk(workspace, surveyId, chunk, result);
  }
  return result;
}
