/** GET /ideas: one page of the workspace's ideas, newest first, with the total; by offset or by cursor. */

import { listIdeas as route } from '../../lib/ideas/routes.ts';
import { listIdeas as readPage } from '../../lib/ideas/store.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listIdeas({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const page = await paginate(pageStart, (start) => readPage(slug, start));
  const { ideas, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, data: ideas, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listIdeas);
