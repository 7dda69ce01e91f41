/** PATCH /surveys/{id}: settings in one conditional UpdateItem (designs and audience read first when they are changed). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { updateSurvey } from '../../lib/surveys/commands/update-survey.ts';
import { updateSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const survey = await updateSurvey(auth.workspace.slug, params.id, body, precondition);
  return { body: { ok: true, survey }, headers: { ETag: etagOf(survey.version) } };
});
