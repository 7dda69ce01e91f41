/** DELETE /journeys/{journeyId}: archives the journey (its versions are kept and stay readable). */
import { archiveJourney } from '../../lib/journeys/commands/archive-journey.ts';
import { archiveJourney as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await archiveJourney(auth.workspace.slug, params.journeyId, precondition);
  return { body: { ok: true } };
});
