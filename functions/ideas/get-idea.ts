/** GET /ideas/{id}: one idea of the workspace, with its version as ETag. */

import { getIdea as route } from '../../lib/ideas/routes.ts';
import { findIdea, ideaNotFound } from '../../lib/ideas/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getIdea({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const idea = await findIdea(auth.workspace.slug, params.id);
  if (!idea) throw ideaNotFound();
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
}

export const handler = apiHandler(route).handler(getIdea);
