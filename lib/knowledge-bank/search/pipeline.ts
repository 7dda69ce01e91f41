/**
 * The search index builder's event source mapping, read by the CDK stack and the sandbox alike:
 *
 *   table stream ──(filter: article metadata items)──▶ builder ──▶ S3: search-index/<workspace>/ base + deltas
 *        │ batch failed after retries                      │                  + manifest.json ◀── conditional GET (ETag)
 *        ▼                                                 ▼                                        │
 *   builder failure queue                table: segment manifest (versioned)        search function (per instance)
 *
 * The batching window is what coalesces a burst: records arriving within it (up to the batch size)
 * reach the builder together, and it writes one delta segment per workspace per batch. The builder
 * is the table stream's second mapping (AWS recommends at most two Lambda readers per shard; the
 * other is lib/webhooks/pipeline.ts `ideaAndResponseChanges`), kept apart for its batching: a 1 s
 * window and 1,000 records coalesce publishes, where webhook events want no window.
 */
import { DAY_SECONDS as DAY, failureQueue, tableStreamMapping } from '../../platform/event-sources.ts';
import { searchIndexReading } from './stream.ts';

export const searchIndexFailureQueue = failureQueue('SearchIndexFailureQueue', 'knowledge-bank-search-index-failures');

/**
 * Every attribute of the segment manifest item (manifest.ts writes exactly these): the builder's
 * PutItem grant is limited to them (`dynamodb:Attributes`), so it can write no article, content or
 * key attribute.
 */
export const SEARCH_MANIFEST_ATTRIBUTES = ['pk', 'sk', 'entity', 'format', 'version', 'base', 'deltas', 'updatedAt'] as const;

export const searchIndexBuilder = tableStreamMapping({
  handler: 'functions/knowledge-bank/build-search-index.ts',
  // Only article metadata items: every publish, unpublish, delete and metadata change rewrites one.
  readers: [searchIndexReading],
  // GetItem/PutItem: the segment manifest (manifest.ts); BatchGetItem/Query: the articles.
  table: ['BatchGetItem', 'Query', 'GetItem', 'PutItem'],
  // A first build of a large workspace reads every live article and indexes it (README: limits).
  timeoutSeconds: 300,
  batchSize: 1000,
  // Publishing is a human action: a second's wait costs nothing and turns a burst into one build.
  maxBatchingWindowSeconds: 1,
  bisectBatchOnFunctionError: true,
  maximumRetryAttempts: 5,
  maximumRecordAgeSeconds: DAY,
  reportBatchItemFailures: true,
  startingPosition: 'TRIM_HORIZON',
  onFailure: searchIndexFailureQueue,
});
