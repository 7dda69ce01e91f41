/** GET /knowledge-bank/translations: each draft's translation status, filtered by locale and status; by offset or by cursor. */
import { listTranslations } from '../../lib/knowledge-bank/commands/list-translations.ts';
import { listKnowledgeBankTranslations as route } from '../../lib/knowledge-bank/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const page = await listTranslations(auth, { locale: query.locale, status: query.status }, pageStart);
  const { items: articles, total, hasMore, nextCursor } = page;
  return { body: { ok: true, articles, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
