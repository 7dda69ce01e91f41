/** DELETE /surveys/{id}: archives (read-only from then on, omitted from the list; versions kept). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { archiveSurvey } from '../../lib/surveys/commands/archive-survey.ts';
import { archiveSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await archiveSurvey(auth.workspace.slug, params.id, precondition);
  return { body: { ok: true } };
});
