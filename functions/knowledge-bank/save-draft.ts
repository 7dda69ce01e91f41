/** PUT /knowledge-bank/articles/{articleId}/draft: replace the draft, its links and backlinks at once. */
import { saveDraft } from '../../lib/knowledge-bank/commands/save-draft.ts';
import { saveKnowledgeBankDraft as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

// A whole-draft replace without a version would silently drop a colleague's edit: the route requires
// If-Match, and the chain refuses a request without one before this runs.
export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const article = await saveDraft(auth.workspace.slug, params.articleId, body, precondition);
  return { body: { ok: true, article }, headers: { ETag: etagOf(article.version) } };
});
