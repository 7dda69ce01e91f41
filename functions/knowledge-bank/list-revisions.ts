/** GET /knowledge-bank/articles/{articleId}/revisions: metadata of each revision, newest first; by offset or by cursor. */

import { visibleTo } from '../../lib/knowledge-bank/access.ts';
import { toRevisionSummary } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankRevisions as route } from '../../lib/knowledge-bank/routes.ts';
import { findArticleItem } from '../../lib/knowledge-bank/store/articles.ts';
import { listRevisions as readRevisions } from '../../lib/knowledge-bank/store/revisions.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listRevisions({ params, query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const meta = visibleTo(auth, await findArticleItem(slug, params.articleId));
  const { limit } = query;
  const page = await paginate(pageStart, (start) => readRevisions(slug, meta, start));
  return {
    body: {
      ok: true,
      revisions: page.items.map(toRevisionSummary),
      pagination: { limit, offset: page.offset, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor },
    },
  };
}

export const handler = listHandler(route).handler(listRevisions);
