/** GET /journeys/{journeyId}: one GetItem. */

import { getJourney as route } from '../../lib/journeys/routes.ts';
import { getJourney as readJourney } from '../../lib/journeys/store/journeys.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getJourney({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const journey = await readJourney(auth.workspace.slug, params.journeyId);
  return { body: { ok: true, journey }, headers: { ETag: etagOf(journey.version) } };
}

export const handler = apiHandler(route).handler(getJourney);
