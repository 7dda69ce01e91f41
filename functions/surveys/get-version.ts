/** GET /surveys/{id}/versions/{versionId}: one version with its definition and issues (GetItem). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { getVersion } from '../../lib/surveys/commands/get-version.ts';
import { getSurveyVersion as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const version = await getVersion(auth.workspace.slug, params.id, params.versionId);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
});
