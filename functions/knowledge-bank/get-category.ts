/** GET /knowledge-bank/categories/{categoryId}: one category with its depth (one Query of the tree). */

import { categoryNotFound } from '../../lib/knowledge-bank/errors.ts';
import { getKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { findCategory as readCategory } from '../../lib/knowledge-bank/store/categories.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getCategory({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const category = await readCategory(auth.workspace.slug, params.categoryId);
  if (!category) throw categoryNotFound();
  return { body: { ok: true, category }, headers: { ETag: etagOf(category.version) } };
}

export const handler = apiHandler(route).handler(getCategory);
