/** PATCH /ideas/{id}: the named fields changed in one conditional write, with no read before it. */
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { assertConfiguredLabels, isEmptyPatch, patchOf } from '../changes.ts';
import { ideaNotFound } from '../errors.ts';
import type { Idea, IdeaPatch } from '../schemas.ts';
import { findIdea, updateIdea as storeChanges } from '../store/ideas.ts';

export async function updateIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  id: string,
  patch: IdeaPatch,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  assertConfiguredLabels(workspace.ideaLabels, patch);
  if (!isEmptyPatch(patch)) return storeChanges(workspace.slug, id, patchOf(patch), precondition, keyId);
  // Nothing to change, so no new version: the idea as it is, preconditions included.
  const idea = await findIdea(workspace.slug, id);
  if (!idea) throw ideaNotFound();
  if (!meetsPrecondition(precondition, idea.version)) throw new VersionConflictError(idea.version);
  return idea;
}
