/** PATCH /ideas/{id}/comments/{commentId}: the text or the visibility changed, at the If-Match version. */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import type { Comment, CommentPatch } from '../comment-schemas.ts';
import { commentNotFound } from '../errors.ts';
import { findComment, updateIdeaComment as storeChange } from '../store/comments.ts';

export async function updateIdeaComment(
  workspace: string,
  ideaId: string,
  commentId: string,
  patch: CommentPatch,
  precondition: VersionPrecondition,
): Promise<Comment> {
  if (Object.values(patch).every((value) => value === undefined)) {
    // Nothing to change, so no new version: the comment as it is.
    const comment = await findComment(workspace, ideaId, commentId);
    if (!comment) throw commentNotFound();
    return comment;
  }
  return storeChange(workspace, ideaId, commentId, patch, precondition);
}
