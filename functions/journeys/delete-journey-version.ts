/** DELETE /journeys/{journeyId}/versions/{versionId}: discard a draft (one transaction when it is allowed). */
import { deleteJourneyVersion } from '../../lib/journeys/commands/delete-journey-version.ts';
import { deleteJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { ifMatchPrecondition } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, headers, auth }) => {
  await deleteJourneyVersion(auth.workspace.slug, params.journeyId, params.versionId, ifMatchPrecondition(headers));
  return { body: { ok: true } };
});
