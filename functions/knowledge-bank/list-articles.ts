/** GET /knowledge-bank/articles: metadata, filtered and paged (one Query of the metadata items); by offset or by cursor. */

import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { matchesArticleFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import { toArticleSummary } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankArticles as route } from '../../lib/knowledge-bank/routes.ts';
import { listArticleItems } from '../../lib/knowledge-bank/store/articles.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listArticles({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const writer = canWrite(auth);
  const { limit, offset, cursor, ...filters } = query;
  const page = await paginate(pageStart, async (start) => {
    const matching = (await listArticleItems(slug))
      .filter((item) => matchesArticleFilter(item, { ...filters, liveOnly: !writer }))
      .sort(newestFirst);
    return pageOf(matching, start);
  });
  return {
    body: {
      ok: true,
      articles: page.items.map((item) => toArticleSummary(item, writer ? 'draft' : 'live')),
      pagination: { limit, offset: page.offset, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor },
    },
  };
}

export const handler = listHandler(route).handler(listArticles);
