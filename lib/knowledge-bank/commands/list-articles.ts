/**
 * GET a page of articles' metadata, filtered, newest first (one Query of the metadata items):
 * write keys see every article's draft header, read-only keys the live ones only.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type ListPage, paginate } from '../../platform/pagination.ts';
import { canWrite } from '../access.ts';
import { type ArticleFilter, type ListedPage, matchesArticleFilter, newestFirst, pageOf } from '../listing.ts';
import { toArticleSummary } from '../record.ts';
import type { ArticleSummary } from '../schemas.ts';
import { listArticleItems } from '../store/articles.ts';

export async function listArticles(
  caller: AuthContext,
  filters: Omit<ArticleFilter, 'liveOnly'>,
  page: ListPage,
): Promise<ListedPage<ArticleSummary>> {
  const writer = canWrite(caller);
  const listed = await paginate(page, async (start) => {
    const matching = (await listArticleItems(caller.workspace.slug))
      .filter((item) => matchesArticleFilter(item, { ...filters, liveOnly: !writer }))
      .sort(newestFirst);
    return pageOf(matching, start);
  });
  return { ...listed, items: listed.items.map((item) => toArticleSummary(item, writer ? 'draft' : 'live')) };
}
