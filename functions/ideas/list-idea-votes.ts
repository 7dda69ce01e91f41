/** GET /ideas/{id}/votes: the votes that count for the idea, with the total; by offset or by cursor. */
import { listIdeaVotes } from '../../lib/ideas/commands/list-idea-votes.ts';
import { listIdeaVotes as route } from '../../lib/ideas/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';

export const handler = listHandler(route).handler(async ({ params, query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listIdeaVotes(auth.workspace.slug, params.id, start));
  const { votes, total, hasMore, offset, nextCursor } = page;
  return { body: { ok: true, votes, pagination: { limit: query.limit, offset, total, hasMore, nextCursor } } };
});
