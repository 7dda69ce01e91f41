/** GET /knowledge-bank/articles: metadata, filtered and paged (one Query of the metadata items); by offset or by cursor. */
import { listArticles } from '../../lib/knowledge-bank/commands/list-articles.ts';
import { listKnowledgeBankArticles as route } from '../../lib/knowledge-bank/routes.ts';
import { holds } from '../../lib/platform/auth/context.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const { limit, offset, cursor, ...filters } = query;
  // The cursor is bound to the filters and the key's view: its offset and total mean something only under them.
  const { categoryId, status, tag, visibility } = filters;
  const list = `${route.operationId}:${JSON.stringify([holds(auth, 'knowledge-bank:write'), categoryId ?? null, status ?? null, tag ?? null, visibility ?? null])}`;
  const page = await listArticles(auth, filters, { workspace: auth.workspace.slug, list, limit, offset, cursor });
  const { items: articles, total, hasMore, nextCursor } = page;
  return { body: { ok: true, articles, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
