/** GET /knowledge-bank/articles/{articleId}/revisions/{revision}: one revision with its blocks (one BatchGet). */
import { getRevision } from '../../lib/knowledge-bank/commands/get-revision.ts';
import { getKnowledgeBankRevision as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => ({
  body: { ok: true, revision: await getRevision(auth, params.articleId, params.revision) },
}));
