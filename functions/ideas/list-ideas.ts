/** GET /ideas: one page of the workspace's ideas, newest first, with the total; by offset or by cursor. */
import { listIdeas } from '../../lib/ideas/commands/list-ideas.ts';
import { listIdeas as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const workspace = auth.workspace.slug;
  const page = await paginate({ workspace, list: route.operationId, ...query }, (start) => listIdeas(workspace, start));
  const { ideas, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, data: ideas, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
