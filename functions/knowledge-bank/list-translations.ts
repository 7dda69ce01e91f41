/** GET /knowledge-bank/translations: each draft's translation status, filtered by locale and status; by offset or by cursor. */

import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { matchesTranslationFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import { headerFor, translationsFor } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankTranslations as route } from '../../lib/knowledge-bank/routes.ts';
import { listArticleItems } from '../../lib/knowledge-bank/store/articles.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listTranslations({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  // Write keys see every draft (what translators work on); read-only keys what is live now.
  const view = canWrite(auth) ? 'draft' : 'live';
  const { limit, locale, status } = query;
  const page = await paginate(pageStart, async (start) => {
    const matching = (await listArticleItems(slug))
      .filter(
        (item) =>
          (view === 'draft' || item.status === 'published') && matchesTranslationFilter(translationsFor(item, view), { locale, status }),
      )
      .sort(newestFirst);
    return pageOf(matching, start);
  });
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
      pagination: { limit, offset: page.offset, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor },
    },
  };
}

export const handler = listHandler(route).handler(listTranslations);
