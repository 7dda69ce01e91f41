/** GET /journeys: one page of active journeys, newest first, with the total the filter selects; by offset or by cursor. */

import { listJourneys as route } from '../../lib/journeys/routes.ts';
import { listJourneys as readPage } from '../../lib/journeys/store/journey-list.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listJourneys({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const { limit, offset, cursor, kind } = query;
  // The cursor is bound to the filter too: its offset and total mean something only under the same `kind`.
  const list = `${route.operationId}:${kind ?? 'all'}`;
  const page = await paginate({ workspace: slug, list, limit, offset, cursor }, (start) => readPage(slug, { ...start, kind }));
  const { journeys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, journeys, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
}

export const handler = apiHandler(route).handler(listJourneys);
