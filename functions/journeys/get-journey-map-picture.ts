/** GET /journeys/{journeyId}/versions/{versionId}/map.svg: the version read (one GetItem), drawn. */

import { renderJourneyMap } from '../../lib/journeys/map-svg/render.ts';
import { getJourneyMapPicture as route } from '../../lib/journeys/routes.ts';
import { getVersion } from '../../lib/journeys/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getJourneyMapPicture({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const version = await getVersion(auth.workspace.slug, params.journeyId, params.versionId);
  const svg = renderJourneyMap({
    content: version.content,
    label: version.label,
    publishedAt: version.publishedAt,
    locale: query.locale ?? 'en',
  });
  return { body: svg, headers: { 'Cache-Control': 'private, no-cache' } };
}

export const handler = apiHandler(route).handler(getJourneyMapPicture);
