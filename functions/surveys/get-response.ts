/** GET /surveys/{id}/responses/{responseId}: one response, its revision as ETag. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { getResponse } from '../../lib/surveys/commands/get-response.ts';
import { getSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const response = await getResponse(auth.workspace.slug, params.id, params.responseId);
  return { body: { ok: true, response }, headers: { ETag: etagOf(response.revision) } };
});
