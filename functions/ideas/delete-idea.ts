/** DELETE /ideas/{id}: delete an idea (optionally only at the version in If-Match) and uncount it. */

import { deleteIdea as route } from '../../lib/ideas/routes.ts';
import { deleteIdea as removeIdea } from '../../lib/ideas/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function deleteIdea({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await removeIdea(auth.workspace.slug, params.id, precondition);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteIdea);
