/** GET /ideas/{id}: one idea of the workspace, with its version as ETag. */
import { getIdea } from '../../lib/ideas/commands/get-idea.ts';
import { getIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const idea = await getIdea(auth.workspace.slug, params.id);
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
});
