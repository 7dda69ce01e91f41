/** POST /knowledge-bank/articles/{articleId}/revisions/{revision}/restore: copy a revision into the draft. */
import { restoreRevision } from '../../lib/knowledge-bank/commands/restore-revision.ts';
import { restoreKnowledgeBankRevision as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  const article = await restoreRevision(auth.workspace.slug, params.articleId, params.revision, precondition);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
