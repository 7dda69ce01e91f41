/** DELETE /surveys/{id}/responses/{responseId}: deletes a response; the change feed keeps a tombstone. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { deleteResponse } from '../../lib/surveys/commands/delete-response.ts';
import { deleteSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  await deleteResponse(auth.workspace.slug, params.id, params.responseId);
  return { body: { ok: true } };
});
