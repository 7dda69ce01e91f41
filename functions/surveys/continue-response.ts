/** PATCH /surveys/{id}/responses/{responseId}: merges answers into a partial response, or finishes it; If-Match required. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { continueResponse } from '../../lib/surveys/responses/response-store.ts';
import { continueSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export async function continueSurveyResponse({
  params,
  body,
  precondition,
  auth,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const response = await continueResponse(auth.workspace.slug, params.id, params.responseId, body, precondition);
  return { body: { ok: true, response }, headers: { ETag: etagOf(response.revision) } };
}

export const handler = apiHandler(route).handler(continueSurveyResponse);
