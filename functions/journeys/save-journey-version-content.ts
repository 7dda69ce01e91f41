/** PUT /journeys/{journeyId}/versions/{versionId}/content: save a draft's content, with fresh diagnostics. */
import { saveJourneyVersionContent } from '../../lib/journeys/commands/save-journey-version-content.ts';
import { saveJourneyVersionContent as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const version = await saveJourneyVersionContent(auth.workspace.slug, params.journeyId, params.versionId, body.content, precondition);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
});
