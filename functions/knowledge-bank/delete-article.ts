/** DELETE /knowledge-bank/articles/{articleId}: refused while published articles link here, unless forced. */
import { deleteArticle } from '../../lib/knowledge-bank/commands/delete-article.ts';
import { deleteKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, precondition, auth }) => {
  await deleteArticle(auth.workspace.slug, params.articleId, { force: query.force === 'true', precondition });
  return { body: { ok: true } };
});
