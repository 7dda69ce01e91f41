/** PATCH /journeys/{journeyId}/versions/{versionId}: a draft's label; the revision stays. */
import { updateJourneyVersion } from '../../lib/journeys/commands/update-journey-version.ts';
import { updateJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const version = await updateJourneyVersion(auth.workspace.slug, params.journeyId, params.versionId, body.label, precondition);
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision) } };
});
