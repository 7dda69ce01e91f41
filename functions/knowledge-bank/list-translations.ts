/** GET /knowledge-bank/translations: each draft's translation status, filtered by locale and status. */

import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { matchesTranslationFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import { listKnowledgeBankTranslations as route } from '../../lib/knowledge-bank/routes.ts';
import { listArticleItems } from '../../lib/knowledge-bank/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listTranslations({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const writer = canWrite(auth);
  const matching = (await listArticleItems(auth.workspace.slug))
    // Read-only keys see only what is published now (the statuses are still the drafts').
    .filter((item) => (writer || item.status === 'published') && matchesTranslationFilter(item, query))
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
        titleEn: item.draft.titleEn,
        titleAr: item.draft.titleAr,
        translations: item.translations,
        updatedAt: item.updatedAt,
      })),
      pagination: page.pagination,
    },
  };
}

export const handler = apiHandler(route).handler(listTranslations);
