/**
 * What merging decides, as pure rules over plain data (the commands read, ask these, then write).
 *
 * A merge of A into B never moves or changes A's own votes: it closes A (its vote-count shards refuse
 * votes from the commit on), then writes on B, for each voter of A, either a new vote that counts on
 * B ("carried": `direct` false, `mergedFrom` [A]) or, for a voter B already has, A added to that vote's
 * `mergedFrom`. One item per (idea, voter) is what makes a customer who voted on both count once, and
 * every write is conditional on the item as it was read, so a vote cast on B while the merge runs
 * lands on one side of each write, never both. An unmerge undoes exactly that: A leaves every
 * `mergedFrom` of B, and a vote of B that then neither was cast on B nor comes from another merged
 * idea is deleted. A vote cast on B after the merge was cast on B (`direct`), so it stays. A is as it
 * was, since nothing of it changed; its version has moved on twice (merge and unmerge are changes).
 */
import {
  ideaHasMergedIdeas,
  ideaMerged,
  ideaNotFound,
  ideaNotMerged,
  MAX_MERGED_INTO_ONE,
  mergeInProgress,
  mergeLimitReached,
  mergeTargetNotFound,
  targetMerged,
} from './errors.ts';

/** What a merge is about to change or undo, as its commit leaves it on the source's gate until the votes have moved. */
export type MergeWork = 'merge' | 'unmerge';

/** An idea as merging sees it: whom it was merged into, who was merged into it, and any unfinished move of votes. */
export interface MergeState {
  id: string;
  mergedInto: string | null;
  mergedFrom: readonly string[];
  /** Set from a merge's or an unmerge's commit until every vote it moves has moved. */
  mergeWork: MergeWork | null;
}

/** Why `source` cannot be merged into `target`, or null when it can (the ids differ: the route refused one into itself). */
export function mergeRefusal(source: MergeState | null, target: MergeState | null): Error | null {
  if (!source) return ideaNotFound();
  if (!target) return mergeTargetNotFound();
  if (source.mergeWork) return mergeInProgress();
  if (source.mergedInto) return ideaMerged(source.mergedInto);
  if (source.mergedFrom.length > 0) return ideaHasMergedIdeas();
  if (target.mergedInto) return targetMerged(target.mergedInto);
  if (target.mergedFrom.length >= MAX_MERGED_INTO_ONE) return mergeLimitReached();
  return null;
}

/** Why `source` cannot be unmerged, or null when it can. */
export function unmergeRefusal(source: MergeState | null): Error | null {
  if (!source) return ideaNotFound();
  if (source.mergeWork) return mergeInProgress();
  if (!source.mergedInto) return ideaNotMerged();
  return null;
}

/** Why an idea cannot be deleted: one in a merge, either side. */
export function deleteRefusal(idea: MergeState): Error | null {
  if (idea.mergeWork) return mergeInProgress();
  if (idea.mergedInto) return ideaMerged(idea.mergedInto);
  if (idea.mergedFrom.length > 0) return ideaHasMergedIdeas();
  return null;
}

/** What a vote item of the target says about how it counts there. */
export interface TargetVote {
  /** Cast on the target itself. */
  direct: boolean;
  /** The merged ideas it also comes from. */
  mergedFrom: readonly string[];
}

/**
 * The write a merge makes on the target for one voter of the source: a new carried vote (`put`, which
 * counts one more voter), the source added to the voter's vote (`add`, no new voter), or nothing
 * (the source is already there: a step done twice).
 */
export function carryVote(target: TargetVote | null, source: string): 'put' | 'add' | 'none' {
  if (!target) return 'put';
  return target.mergedFrom.includes(source) ? 'none' : 'add';
}

/**
 * The write an unmerge makes on one vote of the target: none when the source is not among its
 * origins, the source removed (`remove`) when the vote stays (cast on the target, or from another
 * merged idea too), else the vote deleted (one voter fewer).
 */
export function uncarryVote(target: TargetVote, source: string): 'none' | 'remove' | 'delete' {
  if (!target.mergedFrom.includes(source)) return 'none';
  return target.direct || target.mergedFrom.length > 1 ? 'remove' : 'delete';
}
