/** PATCH /knowledge-bank/articles/{articleId}: category, tags, visibility, slug. */
import { updateArticle } from '../../lib/knowledge-bank/commands/update-article.ts';
import { updateKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const article = await updateArticle(auth.workspace.slug, params.articleId, body, precondition);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
