/**
 * POST /ideas/{id}/merge: the two ideas and the source's gate read together; the rules decide
 * (lib/ideas/merging.ts); one transaction commits the merge and closes the source to votes; then the
 * source's voters are carried onto the target (store/merges.ts) and the work is marked done. A commit
 * that raced another change is decided again from a fresh read. A merge sent again into the same
 * target while its votes are still moving (the first request ran out of time) finishes moving them.
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { mergeInProgress, mergeIntoItself } from '../errors.ts';
import { mergeRefusal } from '../merging.ts';
import type { Idea } from '../schemas.ts';
import { commitMerge, MergeRaced } from '../store/merges.ts';
import { readMergeState, requireIdea } from './merge-state.ts';
import { moveMergedVotes } from './move-merged-votes.ts';

const COMMIT_ATTEMPTS = 3;

export async function mergeIdea(
  workspace: string,
  sourceId: string,
  into: string,
  precondition: NonNullable<VersionPrecondition>,
): Promise<{ idea: Idea; target: Idea; moved: 'done' | 'moving' }> {
  const startedAt = Date.now();
  if (sourceId === into) throw mergeIntoItself();
  for (let attempt = 1; ; attempt++) {
    const { source, target, version, generation } = await readMergeState(workspace, sourceId, into);
    const resuming = source?.mergeWork === 'merge' && source.mergedInto === into;
    if (!resuming) {
      const refusal = mergeRefusal(source, target);
      if (refusal) throw refusal;
    }
    if (!meetsPrecondition(precondition, version)) throw new VersionConflictError(version);
    if (!resuming) {
      if (attempt > COMMIT_ATTEMPTS) throw mergeInProgress();
      try {
        await commitMerge(workspace, 'merge', sourceId, into, generation, precondition);
      } catch (error) {
        if (error instanceof MergeRaced) continue;
        throw error;
      }
    }
    const moving = resuming ? generation : generation + 1;
    const moved = await moveMergedVotes(workspace, 'merge', sourceId, into, moving, startedAt);
    const [idea, merged] = await Promise.all([requireIdea(workspace, sourceId), requireIdea(workspace, into)]);
    return { idea, target: merged, moved };
  }
}
