/** GET /knowledge-bank/translations: each draft's translation status, filtered by locale and status; by offset or by cursor. */
import { listTranslations } from '../../lib/knowledge-bank/commands/list-translations.ts';
import { listKnowledgeBankTranslations as route } from '../../lib/knowledge-bank/routes.ts';
import { holds } from '../../lib/platform/auth/context.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const { limit, offset, cursor, locale, status } = query;
  // The cursor is bound to the filters and the view: its offset and total mean something only under them.
  const list = `${route.operationId}:${holds(auth, 'knowledge-bank:write') ? 'draft' : 'live'}:${locale ?? 'any'}:${status ?? 'any'}`;
  const page = await listTranslations(auth, { locale, status }, { workspace: auth.workspace.slug, list, limit, offset, cursor });
  const { items: articles, total, hasMore, nextCursor } = page;
  return { body: { ok: true, articles, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
