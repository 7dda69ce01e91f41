/** GET /journeys/{journeyId}/versions/{versionId}/map.svg: the version (one GetItem), its bound metrics (one Query per bound question), drawn. */
import { getJourneyMapPicture } from '../../lib/journeys/commands/get-journey-map-picture.ts';
import { getJourneyMapPicture as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const svg = await getJourneyMapPicture(auth.workspace.slug, params.journeyId, params.versionId, query);
  return { body: svg, headers: { 'Cache-Control': 'private, no-cache' } };
});
