/** GET /journeys/{journeyId}/versions/{versionId}: one GetItem. */

import { getJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { getVersion } from '../../lib/journeys/store/versions.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getJourneyVersion({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await getVersion(auth.workspace.slug, params.journeyId, params.versionId);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(getJourneyVersion);
