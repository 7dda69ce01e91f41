/** GET /knowledge-bank/articles: metadata, filtered and paged (one Query of the metadata items). */

import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { matchesArticleFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import { toArticleSummary } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankArticles as route } from '../../lib/knowledge-bank/routes.ts';
import { listArticleItems } from '../../lib/knowledge-bank/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listArticles({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const writer = canWrite(auth);
  const { limit, offset, ...filters } = query;
  const matching = (await listArticleItems(auth.workspace.slug))
    .filter((item) => matchesArticleFilter(item, { ...filters, liveOnly: !writer }))
    .sort(newestFirst);
  const page = pageOf(matching, { limit, offset });
  return {
    body: {
      ok: true,
      articles: page.items.map((item) => toArticleSummary(item, writer ? 'draft' : 'live')),
      pagination: page.pagination,
    },
  };
}

export const handler = apiHandler(route).handler(listArticles);
