/** GET /knowledge-bank/categories/{categoryId}: one category with its depth (one Query of the tree). */
import { getCategory } from '../../lib/knowledge-bank/commands/get-category.ts';
import { getKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => {
  const category = await getCategory(auth.workspace.slug, params.categoryId);
  return { body: { ok: true, category }, headers: { ETag: etagOf(category.version) } };
});
