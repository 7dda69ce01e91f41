/** GET /ideas: one page of the workspace's ideas, newest first, with the total. */
import { listIdeas as readPage } from '../../lib/data/ideas.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { listIdeas as route } from '../../lib/routes/ideas.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function listIdeas({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { limit, offset } = query;
  const { ideas, total, hasMore } = await readPage(auth.workspace.slug, { limit, offset });
  return { body: { ok: true, data: ideas, pagination: { limit, offset, total, hasMore } } };
}

export const handler = apiHandler(route).handler(listIdeas);
