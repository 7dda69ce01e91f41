/**
 * The aggregation's rule, pure: which stream change of a response is counted, and what it changes in
 * the day buckets. Each response has a marker of what was last counted of it (its revision, bucket
 * and contribution, or that it is gone). A change is counted only when it is newer than the marker
 * (a removal is newer than any revision: a deleted response never comes back), and then the bucket
 * gets the new contribution minus the marker's. "Newer" is a total order, so folding any set of
 * changes, in any order, any number of times, ends at the newest: replays, duplicates and reordered
 * records all count once, and the buckets equal a recount of the stored responses.
 */
import { addCounts, type Counts } from './counts.ts';

export interface BucketRef {
  versionId: string;
  /** UTC date of the response's createdAt (contract §1). */
  day: string;
  /** Which of the day's buckets (entities.ts `dayBucketEntity`); absent: the one bucket of the layout before migration 002. */
  shard?: number;
}

/** One response's state as a stream record tells it: an INSERT/MODIFY's new image, or a REMOVE. */
export interface ResponseChange {
  responseId: string;
  revision: number;
  removed: boolean;
  bucket: BucketRef;
  /** What the response adds to its bucket now; empty once removed (deletions count as the end state). */
  contribution: Counts;
}

export interface CountedMarker {
  revision: number;
  removed: boolean;
  bucket: BucketRef;
  contribution: Counts;
}

export const bucketId = (bucket: BucketRef) => `${bucket.day}#${bucket.versionId}#${bucket.shard ?? '-'}`;

/** Whether `change` is newer than what was counted. */
function isNewer(change: { revision: number; removed: boolean }, counted: CountedMarker | undefined): boolean {
  if (!counted) return true;
  if (counted.removed) return false;
  return change.removed || change.revision > counted.revision;
}

export interface Fold {
  /** The markers to write: only responses whose counted state changed. */
  markers: Map<string, CountedMarker>;
  /** Counter deltas per bucket (bucketId → bucket and delta); buckets with no change are absent. */
  deltas: Map<string, { bucket: BucketRef; counts: Counts }>;
}

/** Folds `changes` over the markers as read (responseId → marker, absent when never counted). */
export function foldChanges(counted: ReadonlyMap<string, CountedMarker>, changes: readonly ResponseChange[]): Fold {
  const newest = new Map<string, CountedMarker>();
  for (const change of changes) {
    const current = newest.get(change.responseId) ?? counted.get(change.responseId);
    if (!isNewer(change, current)) continue;
    newest.set(change.responseId, {
      revision: change.revision,
      removed: change.removed,
      // A response stays in the bucket it was first counted in: each change touches one bucket.
      bucket: current?.bucket ?? change.bucket,
      contribution: change.removed ? {} : change.contribution,
    });
  }

  const deltas: Fold['deltas'] = new Map();
  const deltaOf = (bucket: BucketRef) => {
    const id = bucketId(bucket);
    let delta = deltas.get(id);
    if (!delta) {
      delta = { bucket, counts: {} };
      deltas.set(id, delta);
    }
    return delta.counts;
  };
  for (const [responseId, marker] of newest) {
    const before = counted.get(responseId);
    if (before) addCounts(deltaOf(before.bucket), before.contribution, -1);
    addCounts(deltaOf(marker.bucket), marker.contribution, 1);
  }
  for (const [id, delta] of deltas) if (Object.keys(delta.counts).length === 0) deltas.delete(id);
  return { markers: newest, deltas };
}
