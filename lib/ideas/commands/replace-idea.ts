/** PUT /ideas/{id}: every writable field replaced in one conditional write (optionally only at the If-Match version). */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { assertConfiguredLabels, replacementOf } from '../changes.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';
import { updateIdea as storeChanges } from '../store/ideas.ts';

export function replaceIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  id: string,
  write: IdeaWrite,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  assertConfiguredLabels(workspace.ideaLabels, write);
  return storeChanges(workspace.slug, id, replacementOf(write), precondition, keyId);
}
