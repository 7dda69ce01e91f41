/** DELETE /journeys/{journeyId}/versions/{versionId}: discard a draft (one transaction when it is allowed). */
import { deleteJourneyVersion } from '../../lib/journeys/commands/delete-journey-version.ts';
import { deleteJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await deleteJourneyVersion(auth.workspace.slug, params.journeyId, params.versionId, precondition);
  return { body: { ok: true } };
});
