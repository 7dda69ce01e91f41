/** GET /journeys: one page of active journeys, newest first, with the total the filter selects; by offset or by cursor. */
import { listJourneys } from '../../lib/journeys/commands/list-journeys.ts';
import { listJourneys as route } from '../../lib/journeys/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listJourneys(auth.workspace.slug, start, query.kind));
  const { journeys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, journeys, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
