/**
 * GET a page of articles' translation status, filtered by locale and status, newest first (one
 * Query of the metadata items). Write keys see every draft (what translators work on); read-only
 * keys what is live now.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type ListPage, paginate } from '../../platform/pagination.ts';
import { canWrite } from '../access.ts';
import { type ListedPage, matchesTranslationFilter, newestFirst, pageOf, type TranslationFilter } from '../listing.ts';
import { headerFor, translationsFor } from '../record.ts';
import type { TranslationStatus } from '../schemas.ts';
import { listArticleItems } from '../store/articles.ts';

export async function listTranslations(
  caller: AuthContext,
  filter: TranslationFilter,
  page: ListPage,
): Promise<ListedPage<TranslationStatus>> {
  const view = canWrite(caller) ? 'draft' : 'live';
  const listed = await paginate(page, async (start) => {
    const matching = (await listArticleItems(caller.workspace.slug))
      .filter((item) => (view === 'draft' || item.status === 'published') && matchesTranslationFilter(translationsFor(item, view), filter))
      .sort(newestFirst);
    return pageOf(matching, start);
  });
  const items = listed.items.map((item) => ({
    id: item.id,
    slug: item.slug,
    categoryId: item.categoryId,
    sourceLanguage: item.sourceLanguage,
    status: item.status,
    titleEn: headerFor(item, view).titleEn,
    titleAr: headerFor(item, view).titleAr,
    translations: translationsFor(item, view),
    updatedAt: item.updatedAt,
  }));
  return { ...listed, items };
}
