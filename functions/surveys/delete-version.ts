/** DELETE /surveys/{id}/versions/{versionId}: discards a draft (published and superseded versions are kept). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { deleteVersion } from '../../lib/surveys/commands/delete-version.ts';
import { deleteSurveyVersion as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  await deleteVersion(auth.workspace.slug, params.id, params.versionId);
  return { body: { ok: true } };
});
