/** GET /knowledge-bank/articles: metadata, filtered and paged (one Query of the metadata items); by offset or by cursor. */
import { listArticles } from '../../lib/knowledge-bank/commands/list-articles.ts';
import { listKnowledgeBankArticles as route } from '../../lib/knowledge-bank/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const { limit, offset, cursor, ...filters } = query;
  const page = await listArticles(auth, filters, pageStart);
  const { items: articles, total, hasMore, nextCursor } = page;
  return { body: { ok: true, articles, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
