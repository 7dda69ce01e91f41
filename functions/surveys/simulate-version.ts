/** POST /surveys/{id}/versions/{versionId}/simulate: walks a version's logic for given answers; stores nothing. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { simulateVersion } from '../../lib/surveys/commands/simulate-version.ts';
import { simulateSurveyVersion as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, auth }) => {
  const run = await simulateVersion(auth.workspace.slug, params.id, params.versionId, body.answers, body.language);
  return { body: { ok: true, run } };
});
