/** PATCH /journeys/{journeyId}: titles, in one conditional write with no read before it. */

import { journeyArchived } from '../../lib/journeys/errors.ts';
import { updateJourney as route } from '../../lib/journeys/routes.ts';
import { getJourney, updateJourneyTitles } from '../../lib/journeys/store/journeys.ts';
import { meetsPrecondition } from '../../lib/platform/data/conditions.ts';
import { VersionConflictError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function updateJourney({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const titles = { titleEn: body.titleEn !== undefined ? body.titleEn : body.title, titleAr: body.titleAr };
  if (titles.titleEn === undefined && titles.titleAr === undefined) {
    // Nothing to change: answer with the journey as it is, after the same checks a change would make.
    const journey = await getJourney(auth.workspace.slug, params.journeyId);
    if (journey.archivedAt) throw journeyArchived();
    if (!meetsPrecondition(precondition, journey.version)) throw new VersionConflictError(journey.version);
    return { body: { ok: true, journey }, headers: { ETag: etagOf(journey.version) } };
  }
  const journey = await updateJourneyTitles(auth.workspace.slug, params.journeyId, titles, precondition);
  return { body: { ok: true, journey }, headers: { ETag: etagOf(journey.version) } };
}

export const handler = apiHandler(route).handler(updateJourney);
