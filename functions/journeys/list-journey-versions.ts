/** GET /journeys/{journeyId}/versions: versions with complete content, newest first, cut before 5 MB. */

import { listJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { listVersions } from '../../lib/journeys/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listJourneyVersions({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { limit, offset } = query;
  const { versions, total, hasMore } = await listVersions(auth.workspace.slug, params.journeyId, { limit, offset });
  return { body: { ok: true, versions, pagination: { limit, offset, total, hasMore } } };
}

export const handler = apiHandler(route).handler(listJourneyVersions);
