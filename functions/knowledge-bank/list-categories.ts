/** GET /knowledge-bank/categories: the whole tree in display order (one Query). */

import { listKnowledgeBankCategories as route } from '../../lib/knowledge-bank/routes.ts';
import { listCategories as readCategories } from '../../lib/knowledge-bank/store/categories.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listCategories({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, categories: await readCategories(auth.workspace.slug) } };
}

export const handler = apiHandler(route).handler(listCategories);
