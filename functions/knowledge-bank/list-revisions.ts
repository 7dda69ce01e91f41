/** GET /knowledge-bank/articles/{articleId}/revisions: metadata of each revision, newest first; by offset or by cursor. */
import { listRevisions } from '../../lib/knowledge-bank/commands/list-revisions.ts';
import { listKnowledgeBankRevisions as route } from '../../lib/knowledge-bank/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';

export const handler = listHandler(route).handler(async ({ params, query, auth, page: pageStart }) => {
  const page = await listRevisions(auth, params.articleId, pageStart);
  const { items: revisions, total, hasMore, nextCursor } = page;
  return { body: { ok: true, revisions, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
