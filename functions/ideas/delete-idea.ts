/** DELETE /ideas/{id}: delete an idea (optionally only at the version in If-Match) and uncount it. */
import { deleteIdea as removeIdea } from '../../lib/data/ideas.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { ifMatchPrecondition } from '../../lib/http/conditional-request.ts';
import { deleteIdea as route } from '../../lib/routes/ideas.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function deleteIdea({ params, headers, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await removeIdea(auth.workspace.slug, params.id, ifMatchPrecondition(headers));
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteIdea);
