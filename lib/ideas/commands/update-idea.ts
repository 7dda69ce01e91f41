/**
 * PATCH /ideas/{id}: the named fields changed in one conditional write, with no read of the idea before
 * it; its vote counts are read beside the rate-limit count (the answer shows them, and a status written
 * records how many had voted, which `idea.status_changed` carries).
 */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { assertConfiguredLabels, isEmptyPatch, patchOf } from '../changes.ts';
import { ideaNotFound } from '../errors.ts';
import type { Idea, IdeaPatch } from '../schemas.ts';
import { findIdea, writeIdeaChanges } from '../store/ideas.ts';
import { readVoteCounts } from '../store/vote-counts.ts';

export async function updateIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  id: string,
  patch: IdeaPatch,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  assertConfiguredLabels(workspace.ideaLabels, patch);
  if (!isEmptyPatch(patch)) {
    const counts = await readVoteCounts(workspace.slug, id);
    const changes = { ...patchOf(patch), ...(patch.status === undefined ? {} : { statusVoterCount: counts.voteCount }) };
    return writeIdeaChanges(workspace.slug, id, changes, precondition, keyId, counts);
  }
  // Nothing to change, so no new version: the idea as it is, preconditions included.
  const idea = await findIdea(workspace.slug, id);
  if (!idea) throw ideaNotFound();
  if (!meetsPrecondition(precondition, idea.version)) throw new VersionConflictError(idea.version);
  return idea;
}
