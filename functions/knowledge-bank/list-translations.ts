/** GET /knowledge-bank/translations: each draft's translation status, filtered by locale and status. */

import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { matchesTranslationFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import { headerFor, translationsFor } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankTranslations as route } from '../../lib/knowledge-bank/routes.ts';
import { listArticleItems } from '../../lib/knowledge-bank/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listTranslations({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  // Write keys see every draft (what translators work on); read-only keys what is live now.
  const view = canWrite(auth) ? 'draft' : 'live';
  const matching = (await listArticleItems(auth.workspace.slug))
    .filter((item) => (view === 'draft' || item.status === 'published') && matchesTranslationFilter(translationsFor(item, view), query))
    .sort(newestFirst);
  const page = pageOf(matching, query);
  return {
    body: {
      ok: true,
      articles: page.items.map((item) => ({
        id: item.id,
        slug: item.slug,
        categoryId: item.categoryId,
        sourceLanguage: item.sourceLanguage,
        status: item.status,
        titleEn: headerFor(item, view).titleEn,
        titleAr: headerFor(item, view).titleAr,
        translations: translationsFor(item, view),
        updatedAt: item.updatedAt,
      })),
      pagination: page.pagination,
    },
  };
}

export const handler = apiHandler(route).handler(listTranslations);
