/** GET /journeys/{journeyId}/versions/{versionId}: one GetItem. */
import { getJourneyVersion } from '../../lib/journeys/commands/get-journey-version.ts';
import { getJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const version = await getJourneyVersion(auth.workspace.slug, params.journeyId, params.versionId);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
});
