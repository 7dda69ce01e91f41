/** DELETE /surveys/{id}/responses/{responseId}: deletes a response; the change feed keeps a tombstone. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { deleteResponse } from '../../lib/surveys/responses/response-store.ts';
import { deleteSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export async function deleteSurveyResponse({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await deleteResponse(auth.workspace.slug, params.id, params.responseId);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteSurveyResponse);
