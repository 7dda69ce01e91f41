/** PATCH /knowledge-bank/articles/{articleId}: category, tags, visibility, slug. */

import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { updateKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { updateArticle as storeChanges } from '../../lib/knowledge-bank/store/article-lifecycle.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function updateArticle({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { item, content } = await storeChanges(auth.workspace.slug, params.articleId, body, precondition);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(updateArticle);
