/** GET /knowledge-bank/articles/{articleId}/revisions: metadata of each revision, newest first. */

import { visibleTo } from '../../lib/knowledge-bank/access.ts';
import { toRevisionSummary } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankRevisions as route } from '../../lib/knowledge-bank/routes.ts';
import { getArticleItem, listRevisions as readRevisions } from '../../lib/knowledge-bank/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listRevisions({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const meta = visibleTo(auth, await getArticleItem(auth.workspace.slug, params.articleId));
  const { items, total } = await readRevisions(auth.workspace.slug, meta, query);
  return {
    body: {
      ok: true,
      revisions: items.map(toRevisionSummary),
      pagination: { limit: query.limit, offset: query.offset, total, hasMore: query.offset + query.limit < total },
    },
  };
}

export const handler = apiHandler(route).handler(listRevisions);
