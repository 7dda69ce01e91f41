/** POST /surveys/{id}/close: published → closed (stops collecting). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { closeSurvey } from '../../lib/surveys/commands/close-survey.ts';
import { closeSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const survey = await closeSurvey(auth.workspace.slug, params.id);
  return { body: { ok: true, survey }, headers: { ETag: etagOf(survey.version) } };
});
