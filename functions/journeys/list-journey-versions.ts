/** GET /journeys/{journeyId}/versions: versions with complete content, newest first, cut before 5 MB; by offset or by cursor. */
import { listJourneyVersions } from '../../lib/journeys/commands/list-journey-versions.ts';
import { listJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = listHandler(route).handler(async ({ params, query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listJourneyVersions(auth.workspace.slug, params.journeyId, start));
  const { versions, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, versions, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
