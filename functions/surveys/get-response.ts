/** GET /surveys/{id}/responses/{responseId}: one response, its revision as ETag. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { getResponse } from '../../lib/surveys/responses/response-store.ts';
import { getSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export async function getSurveyResponse({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const response = await getResponse(auth.workspace.slug, params.id, params.responseId);
  return { body: { ok: true, response }, headers: { ETag: etagOf(response.revision) } };
}

export const handler = apiHandler(route).handler(getSurveyResponse);
