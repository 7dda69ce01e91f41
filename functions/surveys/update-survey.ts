/** PATCH /surveys/{id}: settings in one conditional UpdateItem (designs and audience read first when they are changed). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, ifMatchPrecondition } from '../../lib/platform/http/conditional-request.ts';
import { updateSurvey } from '../../lib/surveys/commands/update-survey.ts';
import { updateSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, headers, auth }) => {
  const survey = await updateSurvey(auth.workspace.slug, params.id, body, ifMatchPrecondition(headers));
  return { body: { ok: true, survey }, headers: { ETag: etagOf(survey.version) } };
});
