/** GET /journeys: one page of active journeys, newest first, with the total the filter selects; by offset or by cursor. */

import { listJourneys as route } from '../../lib/journeys/routes.ts';
import { listJourneys as readPage } from '../../lib/journeys/store/journey-list.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listJourneys({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const { limit, kind } = query;
  const page = await paginate(pageStart, (start) => readPage(slug, { ...start, kind }));
  const { journeys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, journeys, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listJourneys);
