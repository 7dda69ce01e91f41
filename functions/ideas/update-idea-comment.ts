/** PATCH /ideas/{id}/comments/{commentId}: change a comment's text or visibility, optionally only at the version in If-Match. */
import { updateIdeaComment } from '../../lib/ideas/commands/update-idea-comment.ts';
import { updateIdeaComment as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const comment = await updateIdeaComment(auth.workspace.slug, params.id, params.commentId, body, precondition);
  return { body: { ok: true, comment }, headers: { ETag: etagOf(comment.version) } };
});
