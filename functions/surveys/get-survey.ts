/** GET /surveys/{id}: the survey, its version summaries and the workspace's designs, in one BatchGetItem. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { getSurvey } from '../../lib/surveys/commands/get-survey.ts';
import { getSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const found = await getSurvey(auth.workspace.slug, params.id);
  return { body: { ok: true, ...found }, headers: { ETag: etagOf(found.survey.version) } };
});
