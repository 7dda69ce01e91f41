/** GET /ideas/{id}: one idea of the workspace, with its version as ETag. */
import { ideaNotFound, getIdea as readIdea } from '../../lib/data/ideas.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { etagOf } from '../../lib/http/conditional-request.ts';
import { getIdea as route } from '../../lib/routes/ideas.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function getIdea({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const idea = await readIdea(auth.workspace.slug, params.id);
  if (!idea) throw ideaNotFound();
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
}

export const handler = apiHandler(route).handler(getIdea);
