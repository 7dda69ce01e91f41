/** PATCH /journeys/{journeyId}/versions/{versionId}: a draft's label; the revision stays. */

import { updateJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { relabelVersion } from '../../lib/journeys/store/drafts.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function updateJourneyVersion({
  params,
  body,
  precondition,
  auth,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await relabelVersion(auth.workspace.slug, params.journeyId, params.versionId, body.label, precondition);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(updateJourneyVersion);
