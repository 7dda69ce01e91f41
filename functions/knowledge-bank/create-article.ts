/** POST /knowledge-bank/articles: create a draft; safe to retry with an Idempotency-Key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, idempotencyKeyOf, requestFingerprint } from '../../lib/platform/http/conditional-request.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { createKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { createArticle as storeArticle } from '../../lib/knowledge-bank/store.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createArticle({ body, headers, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const idempotencyKey = idempotencyKeyOf(headers);
  const { article, replayed } = await storeArticle(auth.workspace.slug, body, {
    idempotency: idempotencyKey ? { key: idempotencyKey, fingerprint: requestFingerprint(body) } : undefined,
  });
  return {
    body: { ok: true, article: toArticle(article.item, article.content, 'draft') },
    headers: {
      ETag: etagOf(article.item.version),
      Location: `/api/v1/knowledge-bank/articles/${article.item.id}`,
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    },
  };
}

export const handler = apiHandler(route).handler(createArticle);
