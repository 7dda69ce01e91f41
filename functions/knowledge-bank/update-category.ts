/** PATCH /knowledge-bank/categories/{categoryId}: rename, move or reorder, checked against the tree. */

import { updateKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { updateCategory as storeChanges } from '../../lib/knowledge-bank/store/categories.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function updateCategory({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const category = await storeChanges(auth.workspace.slug, params.categoryId, body, precondition);
  return { body: { ok: true, category }, headers: { ETag: etagOf(category.version) } };
}

export const handler = apiHandler(route).handler(updateCategory);
