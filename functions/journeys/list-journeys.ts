/** GET /journeys: one page of active journeys, newest first, with the total the filter selects. */

import { listJourneys as route } from '../../lib/journeys/routes.ts';
import { listJourneys as readPage } from '../../lib/journeys/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listJourneys({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { limit, offset, kind } = query;
  const { journeys, total, hasMore } = await readPage(auth.workspace.slug, { limit, offset, kind });
  return { body: { ok: true, journeys, pagination: { limit, offset, total, hasMore } } };
}

export const handler = apiHandler(route).handler(listJourneys);
