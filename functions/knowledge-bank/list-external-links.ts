/** GET /knowledge-bank/links: the distinct external URLs with their last check (one Query), in URL order; by offset or by cursor. */
import { listExternalLinks } from '../../lib/knowledge-bank/commands/list-external-links.ts';
import { listKnowledgeBankExternalLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { holds } from '../../lib/platform/auth/context.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const { limit, offset, cursor, status } = query;
  // Bound to the filter and the key's view: a cursor's place means something only under them.
  const list = `${route.operationId}:${JSON.stringify([holds(auth, 'knowledge-bank:write'), status ?? null])}`;
  const page = await listExternalLinks(auth, status, { workspace: auth.workspace.slug, list, limit, offset, cursor });
  const { items: links, total, hasMore, nextCursor } = page;
  return { body: { ok: true, links, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
