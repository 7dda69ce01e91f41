/** The Ideas area's own error answers, on the platform's typed errors, and the codes it adds to the catalog. */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { BadRequestError, ConflictError, NotFoundError, VersionConflictError } from '../platform/errors.ts';

/** How many ideas one idea can take in: each is one more range its comment list reads. */
export const MAX_MERGED_INTO_ONE = 25;

export const ideaErrorCodes = defineErrorCodes({
  400: {
    merge_into_itself: 'An idea cannot be merged into itself',
    merge_target_not_found: '`into` names no idea of this workspace',
  },
  409: {
    idea_merged:
      'The idea was merged into another (`mergedInto`): it takes no votes or comments and cannot be merged or deleted; or the merge target is itself merged',
    idea_has_merged_ideas:
      'Other ideas were merged into this one: it cannot be merged into another (no chains) or deleted until they are unmerged',
    idea_not_merged: 'The idea is not merged into another: there is nothing to unmerge',
    merge_in_progress: "A merge or unmerge of this idea is still moving its votes (a few seconds for thousands); try again when it's done",
    merge_limit_reached: `The target already has ${MAX_MERGED_INTO_ONE} ideas merged into it`,
  },
});

/** The one answer for an id this workspace has no idea under, whether it never existed or is another's. */
export const ideaNotFound = () => new NotFoundError('not_found', 'No idea with this id in this workspace');
export const voteNotFound = () => new NotFoundError('not_found', 'No vote with this id on this idea');
export const commentNotFound = () => new NotFoundError('not_found', 'No comment with this id on this idea');

/** What a failed condition's current item says: 404 when the idea is gone, else 409 at its version. */
export function ideaConditionFailure(current: Record<string, unknown> | undefined): Error {
  const version = current?.version;
  return version === undefined ? ideaNotFound() : new VersionConflictError(Number(version));
}

export const ideaMerged = (into: string) =>
  new ConflictError('idea_merged', `The idea was merged into ${into}: vote, comment and change it there (or unmerge it first)`);
export const targetMerged = (into: string) =>
  new ConflictError('idea_merged', `The target idea was itself merged into ${into}: merge into that one instead (merges never chain)`);
export const ideaHasMergedIdeas = () =>
  new ConflictError('idea_has_merged_ideas', 'Other ideas were merged into this one: unmerge them first (merges never chain)');
export const ideaNotMerged = () => new ConflictError('idea_not_merged', 'The idea is not merged into another');
export const mergeInProgress = () =>
  new ConflictError('merge_in_progress', 'A merge or unmerge of this idea is still moving its votes; try again in a few seconds');
export const mergeLimitReached = () =>
  new ConflictError('merge_limit_reached', `An idea can take at most ${MAX_MERGED_INTO_ONE} merged ideas; unmerge one first`);
export const mergeIntoItself = () => new BadRequestError('merge_into_itself', 'An idea cannot be merged into itself');
export const mergeTargetNotFound = () => new BadRequestError('merge_target_not_found', 'No idea with the id in `into` in this workspace');
