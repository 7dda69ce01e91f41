/** DELETE /knowledge-bank/articles/{articleId}: refused while published articles link here, unless forced. */

import { deleteKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { deleteArticle as storeDelete } from '../../lib/knowledge-bank/store/article-lifecycle.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function deleteArticle({ params, query, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await storeDelete(auth.workspace.slug, params.articleId, { force: query.force === 'true', precondition });
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteArticle);
