/** POST /knowledge-bank/articles/{articleId}/unpublish: take it offline, keeping draft and history. */

import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { unpublishKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { unpublishArticle as storeUnpublish } from '../../lib/knowledge-bank/store/publishing.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function unpublishArticle({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { item, content } = await storeUnpublish(auth.workspace.slug, params.articleId, precondition);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(unpublishArticle);
