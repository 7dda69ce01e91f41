/** GET /journeys: one page of active journeys, newest first, with the total the filter selects; by offset or by cursor. */
import { listJourneys } from '../../lib/journeys/commands/list-journeys.ts';
import { listJourneys as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const workspace = auth.workspace.slug;
  const { limit, offset, cursor, kind } = query;
  // The cursor is bound to the filter too: its offset and total mean something only under the same `kind`.
  const list = `${route.operationId}:${kind ?? 'all'}`;
  const page = await paginate({ workspace, list, limit, offset, cursor }, (start) => listJourneys(workspace, start, kind));
  const { journeys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, journeys, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
