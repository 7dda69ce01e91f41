/** DELETE /knowledge-bank/categories/{categoryId}: only an empty category goes. */

import { deleteKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { deleteCategory as storeDelete } from '../../lib/knowledge-bank/store/categories.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function deleteCategory({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await storeDelete(auth.workspace.slug, params.categoryId, precondition);
  return { body: { ok: true } };
}

export const handler = apiHandler(route).handler(deleteCategory);
