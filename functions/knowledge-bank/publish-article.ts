/** POST /knowledge-bank/articles/{articleId}/publish: the draft becomes the next revision and goes live. */

import { publishArticle as storePublish } from '../../lib/knowledge-bank/content-writes.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { publishKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function publishArticle({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { item, content } = await storePublish(auth.workspace.slug, params.articleId, precondition, auth.key.id);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(publishArticle);
