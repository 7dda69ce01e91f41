/** DELETE /surveys/{id}: archives (read-only from then on, omitted from the list; versions kept). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { ifMatchPrecondition } from '../../lib/platform/http/conditional-request.ts';
import { archiveSurvey } from '../../lib/surveys/commands/archive-survey.ts';
import { archiveSurvey as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, headers, auth }) => {
  await archiveSurvey(auth.workspace.slug, params.id, ifMatchPrecondition(headers));
  return { body: { ok: true } };
});
