/** GET /knowledge-bank/articles/{articleId}/backlinks: articles linking here (one Query of backlink items). */
import { listBacklinks } from '../../lib/knowledge-bank/commands/list-backlinks.ts';
import { listKnowledgeBankBacklinks as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => ({
  body: { ok: true, backlinks: await listBacklinks(auth, params.articleId) },
}));
