/** GET /knowledge-bank/categories: the whole tree in display order (one Query). */
import { listCategories } from '../../lib/knowledge-bank/commands/list-categories.ts';
import { listKnowledgeBankCategories as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => ({
  body: { ok: true, categories: await listCategories(auth.workspace.slug) },
}));
