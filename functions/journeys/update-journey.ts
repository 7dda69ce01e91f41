/** PATCH /journeys/{journeyId}: titles, in one conditional write with no read before it. */
import { updateJourney } from '../../lib/journeys/commands/update-journey.ts';
import { updateJourney as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const journey = await updateJourney(auth.workspace.slug, params.journeyId, body, precondition);
  return { body: { ok: true, journey }, headers: { ETag: etagOf(journey.version) } };
});
