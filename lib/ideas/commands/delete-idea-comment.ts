/** DELETE /ideas/{id}/comments/{commentId}: the comment read, then deleted at its version and uncounted in one transaction. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { deleteIdeaComment as removeComment } from '../store/comments.ts';

export function deleteIdeaComment(workspace: string, ideaId: string, commentId: string, precondition: VersionPrecondition): Promise<void> {
  return removeComment(workspace, ideaId, commentId, precondition);
}
