/** GET /journeys/{journeyId}: one GetItem. */
import { getJourney } from '../../lib/journeys/commands/get-journey.ts';
import { getJourney as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const journey = await getJourney(auth.workspace.slug, params.journeyId);
  return { body: { ok: true, journey }, headers: { ETag: etagOf(journey.version) } };
});
