/**
 * POST /ideas: an idea whose labels the workspace configures, in one transaction with its ranks and its
 * submitter's references (by which an erasure finds it); a retry under its Idempotency-Key gets the first
 * answer. Beside the write, and in parallel with it, the workspace's ideas most like the new one are
 * looked up (find-similar-ideas.ts) and answered as possible duplicates.
 */
import type { IdempotentRequest } from '../../platform/data/idempotency.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { logger } from '../../platform/logger.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { assertConfiguredLabels } from '../changes.ts';
import { submitterRefsOf } from '../people.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';
import { writeNewIdea } from '../store/ideas.ts';
import { duplicateCandidatesOf, duplicatesBesides, type SimilarIdea } from './find-similar-ideas.ts';

export type { Idea, SimilarIdea };

export async function createIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  write: IdeaWrite,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ idea: Idea; replayed: boolean; possibleDuplicates: SimilarIdea[] | undefined }> {
  assertConfiguredLabels(workspace.ideaLabels, write);
  const [created, candidates] = await Promise.all([
    submitterRefsOf(workspace.slug, write.submitter).then((submitterRefs) =>
      writeNewIdea(workspace.slug, write, { keyId, idempotency, submitterRefs }),
    ),
    duplicateCandidatesOrNothing(workspace.slug, write),
  ]);
  if (!created.replayed) countBusinessEvent('IdeasCreated');
  return { ...created, possibleDuplicates: candidates && duplicatesBesides(candidates, created.idea.id) };
}

/** A replayed create's possible duplicates, looked up again: other ideas may have come or gone since. */
export async function possibleDuplicatesOf(workspace: string, idea: Idea): Promise<SimilarIdea[] | undefined> {
  const candidates = await duplicateCandidatesOrNothing(workspace, idea);
  return candidates && duplicatesBesides(candidates, idea.id);
}

/**
 * Possible duplicates are advice: when they cannot be looked up (the table busy) the idea is created
 * all the same and the answer goes without them, rather than a failure that invites a second create.
 */
async function duplicateCandidatesOrNothing(workspace: string, idea: IdeaWrite | Idea): Promise<SimilarIdea[] | undefined> {
  try {
    return await duplicateCandidatesOf(workspace, idea);
  } catch (error) {
    logger.warn('possible duplicates not looked up', { error });
    return undefined;
  }
}
