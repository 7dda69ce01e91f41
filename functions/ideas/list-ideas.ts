/** GET /ideas: one page of the workspace's ideas, newest first, with the total. */

import { listIdeas as route } from '../../lib/ideas/routes.ts';
import { listIdeas as readPage } from '../../lib/ideas/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listIdeas({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { limit, offset } = query;
  const { ideas, total, hasMore } = await readPage(auth.workspace.slug, { limit, offset });
  return { body: { ok: true, data: ideas, pagination: { limit, offset, total, hasMore } } };
}

export const handler = apiHandler(route).handler(listIdeas);
