/** PATCH /surveys/{id}/responses/{responseId}: merges answers into a partial response, or finishes it; If-Match required. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { continueResponse } from '../../lib/surveys/commands/continue-response.ts';
import { continueSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const response = await continueResponse(auth.workspace.slug, params.id, params.responseId, body, precondition);
  return { body: { ok: true, response }, headers: { ETag: etagOf(response.revision) } };
});
