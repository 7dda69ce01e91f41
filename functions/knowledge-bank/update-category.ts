/** PATCH /knowledge-bank/categories/{categoryId}: rename, move or reorder, checked against the tree. */
import { updateCategory } from '../../lib/knowledge-bank/commands/update-category.ts';
import { updateKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const category = await updateCategory(auth.workspace.slug, params.categoryId, body, precondition);
  return { body: { ok: true, category }, headers: { ETag: etagOf(category.version) } };
});
