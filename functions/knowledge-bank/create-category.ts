/** POST /knowledge-bank/categories: create a category; safe to retry with an Idempotency-Key. */

import { createKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import type { Category } from '../../lib/knowledge-bank/schemas.ts';
import { createCategory as storeCategory } from '../../lib/knowledge-bank/store/categories.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createCategory({ body, idempotency, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { category, replayed } = await storeCategory(auth.workspace.slug, body, idempotency);
  return answer(category, replayed);
}

function answer(category: Category, replayed: boolean): ApiResult<typeof route> {
  return { body: { ok: true, category }, headers: { ETag: etagOf(category.version), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(createCategory, { replay: (category) => answer(category as Category, false) });
