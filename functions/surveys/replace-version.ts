/** PUT /surveys/{id}/versions/{versionId}: saves a draft's definition on the revision the client read (If-Match required). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { replaceVersion } from '../../lib/surveys/commands/replace-version.ts';
import { replaceSurveyVersion as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const version = await replaceVersion(auth.workspace.slug, params.id, params.versionId, body.definition, precondition.versions);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
});
