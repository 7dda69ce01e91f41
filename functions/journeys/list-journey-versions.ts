/** GET /journeys/{journeyId}/versions: versions with complete content, newest first, cut before 5 MB; by offset or by cursor. */

import { listJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { listVersions } from '../../lib/journeys/store/versions.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listJourneyVersions({
  params,
  query,
  auth,
  page: pageStart,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const page = await paginate(pageStart, (start) => listVersions(slug, params.journeyId, start));
  const { versions, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, versions, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listJourneyVersions);
