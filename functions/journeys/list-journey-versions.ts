/** GET /journeys/{journeyId}/versions: versions with complete content, newest first, cut before 5 MB; by offset or by cursor. */
import { listJourneyVersions } from '../../lib/journeys/commands/list-journey-versions.ts';
import { listJourneyVersions as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const workspace = auth.workspace.slug;
  // The cursor is bound to this journey's versions.
  const list = `${route.operationId}:${params.journeyId}`;
  const page = await paginate({ workspace, list, ...query }, (start) => listJourneyVersions(workspace, params.journeyId, start));
  const { versions, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, versions, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
