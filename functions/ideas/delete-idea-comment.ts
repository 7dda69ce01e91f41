/** DELETE /ideas/{id}/comments/{commentId}: delete a comment, optionally only at the version in If-Match. */
import { deleteIdeaComment } from '../../lib/ideas/commands/delete-idea-comment.ts';
import { deleteIdeaComment as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await deleteIdeaComment(auth.workspace.slug, params.id, params.commentId, precondition);
  return { body: { ok: true } };
});
