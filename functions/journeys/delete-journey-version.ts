/** DELETE /journeys/{journeyId}/versions/{versionId}: discard a draft (one transaction when it is allowed). */

import { deleteJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { discardVersion } from '../../lib/journeys/store/drafts.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function deleteJourneyVersion({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await discardVersion(auth.workspace.slug, params.journeyId, params.versionId, precondition);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteJourneyVersion);
