/** POST /knowledge-bank/articles/{articleId}/unpublish: take it offline, keeping draft and history. */
import { unpublishArticle } from '../../lib/knowledge-bank/commands/unpublish-article.ts';
import { unpublishKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  const article = await unpublishArticle(auth.workspace.slug, params.articleId, precondition);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
