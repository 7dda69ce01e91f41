/**
 * The items of survey summaries (lib/platform/data/entity.ts), written only by the stream aggregator
 * (aggregator.ts, store/counted-markers.ts).
 */
import { defineEntity } from '../../platform/data/entity.ts';
import { stableHash, workspacePk } from '../../platform/data/keys.ts';

/** Summary buckets of one survey, day and version at most (one per concurrent aggregator instance). */
export const DAY_BUCKET_SHARDS = 64;

/**
 * Counter buckets per survey, UTC day and version. Day-major (`SURVEYDAY#<surveyId>#<YYYY-MM-DD>#<versionId>[#<nn>]`),
 * so the days `from`…`to` of every version are one Query range; versions filter in memory. A busy day has
 * several buckets (`#<nn>`, one per concurrent aggregator instance), which the summary adds up; a bucket
 * without a suffix is one written before migration 002, kept as it is.
 */
export const dayBucketEntity = defineEntity({
  name: 'SurveyDayBucket',
  keys: {
    bucket: (workspace: string, surveyId: string, day: string, versionId: string, shard?: number) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYDAY#${surveyId}#${day}#${versionId}${shard === undefined ? '' : `#${String(shard).padStart(2, '0')}`}`,
    }),
    /** Inclusive `sk BETWEEN` bounds of a survey's buckets of the days `from`…`to` ('~' sorts after every id). */
    days: (surveyId: string, from: string, to: string) => ({
      from: `SURVEYDAY#${surveyId}#${from}`,
      to: `SURVEYDAY#${surveyId}#${to}#~`,
    }),
  },
});

/**
 * What the aggregator last counted of one response (revision, bucket, contribution), so a replayed,
 * duplicated or reordered stream record is counted once; a removed response keeps a tombstone (TTL).
 * Read and written by key only, and keyed by a hash of the response id, so new markers land all over
 * the key space rather than at the end of one range (the legacy key did: `…#<UUIDv7>`).
 */
export const countedMarkerEntity = defineEntity({
  name: 'SurveyResponseCounted',
  keys: {
    marker: (workspace: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYCOUNTED#${surveyId}#${stableHash(responseId, 8)}#${responseId}`,
    }),
    /** What a survey's markers start with, in both layouts (the migration and a summary rebuild walk them). */
    prefix: (surveyId: string) => `SURVEYCOUNTED#${surveyId}#`,
    legacy: (workspace: string, surveyId: string, responseId: string) => ({
      pk: workspacePk(workspace),
      sk: `SURVEYCOUNTED#${surveyId}#${responseId}`,
    }),
  },
});
