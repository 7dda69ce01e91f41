/** GET /ideas/{id}/comments: the idea's comments (and those of ideas merged into it), newest first, with the total. */
import { listIdeaComments } from '../../lib/ideas/commands/list-idea-comments.ts';
import { listIdeaComments as route } from '../../lib/ideas/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = listHandler(route).handler(async ({ params, query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listIdeaComments(auth.workspace.slug, params.id, query.visibility, start));
  const { comments, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, comments, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
