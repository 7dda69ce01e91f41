/** POST /surveys/{id}/publish: refuses errors (400) and unacknowledged breaking changes (409), else one transaction. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { publishSurvey } from '../../lib/surveys/commands/publish-survey.ts';
import { publishSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, auth }) => {
  const { survey, version } = await publishSurvey(auth.workspace.slug, params.id, body);
  return { body: { ok: true, survey, version }, headers: { ETag: etagOf(survey.version) } };
});
