/** POST /ideas/{id}/unmerge: undo a merge exactly (If-Match required), answering both ideas. */
import { unmergeIdea } from '../../lib/ideas/commands/unmerge-idea.ts';
import { unmergeIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  const { idea, target, moved } = await unmergeIdea(auth.workspace.slug, params.id, precondition);
  return { status: moved === 'done' ? 200 : 202, body: { ok: true, data: idea, target }, headers: { ETag: etagOf(idea.version) } };
});
