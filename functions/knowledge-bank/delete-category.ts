/** DELETE /knowledge-bank/categories/{categoryId}: only an empty category goes. */
import { deleteCategory } from '../../lib/knowledge-bank/commands/delete-category.ts';
import { deleteKnowledgeBankCategory as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await deleteCategory(auth.workspace.slug, params.categoryId, precondition);
  return { body: { ok: true } };
});
