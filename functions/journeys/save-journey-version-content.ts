/** PUT /journeys/{journeyId}/versions/{versionId}/content: save a draft's content, with fresh diagnostics. */

import { saveJourneyVersionContent as route } from '../../lib/journeys/routes.ts';
import { saveContent } from '../../lib/journeys/version-content.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function saveJourneyVersionContent({
  params,
  body,
  precondition,
  auth,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await saveContent(auth.workspace.slug, params.journeyId, params.versionId, body.content, precondition);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
}

export const handler = apiHandler(route).handler(saveJourneyVersionContent);
