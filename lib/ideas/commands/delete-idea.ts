/** DELETE /ideas/{id}: the idea deleted (optionally only at the If-Match version) and uncounted, in one transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { deleteIdea as removeIdea } from '../store/ideas.ts';

export function deleteIdea(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  return removeIdea(workspace, id, precondition);
}
