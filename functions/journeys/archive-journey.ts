/** DELETE /journeys/{journeyId}: archives the journey (its versions are kept and stay readable). */

import { archiveJourney as route } from '../../lib/journeys/routes.ts';
import { archiveJourney as storeArchive } from '../../lib/journeys/store/journeys.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function archiveJourney({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await storeArchive(auth.workspace.slug, params.journeyId, precondition);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(archiveJourney);
