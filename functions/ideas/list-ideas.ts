/** GET /ideas: one page of the workspace's ideas in the order asked, with the total; by offset or by cursor. */
import { listIdeas } from '../../lib/ideas/commands/list-ideas.ts';
import { listIdeas as route } from '../../lib/ideas/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listIdeas(auth.workspace.slug, start, query));
  const { ideas, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, data: ideas, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
