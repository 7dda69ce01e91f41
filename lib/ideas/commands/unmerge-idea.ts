/**
 * POST /ideas/{id}/unmerge: the idea and its gate read together; the rules decide; one transaction
 * commits the unmerge and opens the idea to votes again; then the idea leaves every vote of the target
 * it was merged into, a vote that then counts for nothing there is deleted (store/merges.ts), and the
 * work is marked done. An unmerge sent again while its votes are still moving finishes moving them.
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { mergeInProgress } from '../errors.ts';
import { unmergeRefusal } from '../merging.ts';
import type { Idea } from '../schemas.ts';
import { commitMerge, MergeRaced } from '../store/merges.ts';
import { readMergeState, requireIdea } from './merge-state.ts';
import { moveMergedVotes } from './move-merged-votes.ts';

const COMMIT_ATTEMPTS = 3;

export async function unmergeIdea(
  workspace: string,
  sourceId: string,
  precondition: NonNullable<VersionPrecondition>,
): Promise<{ idea: Idea; target: Idea; moved: 'done' | 'moving' }> {
  const startedAt = Date.now();
  for (let attempt = 1; ; attempt++) {
    const { source, version, generation, mergeTarget } = await readMergeState(workspace, sourceId, null);
    const resuming = source?.mergeWork === 'unmerge' && mergeTarget !== null;
    if (!resuming) {
      const refusal = unmergeRefusal(source);
      if (refusal) throw refusal;
    }
    if (!meetsPrecondition(precondition, version)) throw new VersionConflictError(version);
    const target = (resuming ? mergeTarget : source?.mergedInto) as string;
    if (!resuming) {
      if (attempt > COMMIT_ATTEMPTS) throw mergeInProgress();
      try {
        await commitMerge(workspace, 'unmerge', sourceId, target, generation, precondition);
      } catch (error) {
        if (error instanceof MergeRaced) continue;
        throw error;
      }
    }
    const moving = resuming ? generation : generation + 1;
    const moved = await moveMergedVotes(workspace, 'unmerge', sourceId, target, moving, startedAt);
    const [idea, left] = await Promise.all([requireIdea(workspace, sourceId), requireIdea(workspace, target)]);
    return { idea, target: left, moved };
  }
}
