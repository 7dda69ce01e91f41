/** GET /knowledge-bank/articles/{articleId}: the draft or the live revision (one BatchGet). */
import { getArticle } from '../../lib/knowledge-bank/commands/get-article.ts';
import { getKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const article = await getArticle(auth, params.articleId, query.view);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
