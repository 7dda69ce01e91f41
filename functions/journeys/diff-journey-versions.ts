/** GET /journeys/{journeyId}/versions/{versionId}/diff?against=…: what changed, as lists of ids. */

import { diffJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { diffVersions } from '../../lib/journeys/store/versions.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function diffJourneyVersions({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const diff = await diffVersions(auth.workspace.slug, params.journeyId, params.versionId, query.against);
  return { body: { ok: true, diff } };
}

export const handler = apiHandler(route).handler(diffJourneyVersions);
