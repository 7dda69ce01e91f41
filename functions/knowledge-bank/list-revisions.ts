/** GET /knowledge-bank/articles/{articleId}/revisions: metadata of each revision, newest first; by offset or by cursor. */
import { listRevisions } from '../../lib/knowledge-bank/commands/list-revisions.ts';
import { listKnowledgeBankRevisions as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const { limit, offset, cursor } = query;
  // Bound to the article: a cursor of one article's revisions means nothing for another's.
  const list = `${route.operationId}:${params.articleId}`;
  const page = await listRevisions(auth, params.articleId, { workspace: auth.workspace.slug, list, limit, offset, cursor });
  const { items: revisions, total, hasMore, nextCursor } = page;
  return { body: { ok: true, revisions, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
