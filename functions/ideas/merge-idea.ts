/** POST /ideas/{id}/merge: merge a duplicate into another idea (If-Match required), answering both. */
import { mergeIdea } from '../../lib/ideas/commands/merge-idea.ts';
import { mergeIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const { idea, target, moved } = await mergeIdea(auth.workspace.slug, params.id, body.into, precondition);
  return { status: moved === 'done' ? 200 : 202, body: { ok: true, data: idea, target }, headers: { ETag: etagOf(idea.version) } };
});
