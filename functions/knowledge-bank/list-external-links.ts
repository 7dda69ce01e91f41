/** GET /knowledge-bank/links: the distinct external URLs with their last check (one Query), in URL order; by offset or by cursor. */
import { listExternalLinks } from '../../lib/knowledge-bank/commands/list-external-links.ts';
import { listKnowledgeBankExternalLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const page = await listExternalLinks(auth, query.status, pageStart);
  const { items: links, total, hasMore, nextCursor } = page;
  return { body: { ok: true, links, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
