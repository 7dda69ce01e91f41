/**
 * POST /surveys/{id}/responses: a response pinned to the version published now, validated by
 * replaying the survey; one transaction on a warm instance; safe to retry with an Idempotency-Key.
 */

import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { submitResponse } from '../../lib/surveys/responses/response-store.ts';
import { submitSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export async function submitSurveyResponse({
  params,
  body,
  auth,
  idempotency,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { response, replayed } = await submitResponse(auth.workspace.slug, params.id, body, idempotency);
  return { body: { ok: true, response }, headers: { ETag: etagOf(response.revision), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(submitSurveyResponse);
