/** GET /knowledge-bank/search: full-text search of the published articles (the warm index, one BatchGet of the hits' live content). */
import { searchArticles } from '../../lib/knowledge-bank/commands/search-articles.ts';
import { searchKnowledgeBank as route } from '../../lib/knowledge-bank/search/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => ({
  body: { ok: true, ...(await searchArticles(auth.workspace.slug, query)) },
}));
