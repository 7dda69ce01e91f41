/** POST /ideas/{id}/comments: a comment on behalf of its author; safe to retry with an Idempotency-Key. */
import { createIdeaComment } from '../../lib/ideas/commands/create-idea-comment.ts';
import type { Comment } from '../../lib/ideas/comment-schemas.ts';
import { createIdeaComment as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import type { ApiResult } from '../../lib/platform/route.ts';

const answer = (comment: Comment, replayed: boolean): ApiResult<typeof route> => ({
  body: { ok: true, comment },
  headers: { ETag: etagOf(comment.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, idempotency, auth }) => {
    const { comment, replayed } = await createIdeaComment(auth.workspace.slug, params.id, body, { keyId: auth.key.id, idempotency });
    return answer(comment, replayed);
  },
  { replay: (comment) => answer(comment as Comment, false) },
);
