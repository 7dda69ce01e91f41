/** POST /knowledge-bank/articles/{articleId}/publish: the draft becomes the next revision and goes live. */
import { publishArticle } from '../../lib/knowledge-bank/commands/publish-article.ts';
import { publishKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  const article = await publishArticle(auth.workspace.slug, params.articleId, precondition, auth.key.id);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
