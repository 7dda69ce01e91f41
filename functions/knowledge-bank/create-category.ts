/** POST /knowledge-bank/categories: create a category; safe to retry with an Idempotency-Key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, idempotencyKeyOf, requestFingerprint } from '../../lib/platform/http/conditional-request.ts';
import { createKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { createCategory as storeCategory } from '../../lib/knowledge-bank/store.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createCategory({ body, headers, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const idempotencyKey = idempotencyKeyOf(headers);
  const { category, replayed } = await storeCategory(auth.workspace.slug, body, {
    idempotency: idempotencyKey ? { key: idempotencyKey, fingerprint: requestFingerprint(body) } : undefined,
  });
  return {
    body: { ok: true, category },
    headers: {
      ETag: etagOf(category.version),
      Location: `/api/v1/knowledge-bank/categories/${category.id}`,
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    },
  };
}

export const handler = apiHandler(route).handler(createCategory);
