/** GET /knowledge-bank/articles/{articleId}/links: outgoing links, internal ones checked against their targets. */
import { listLinks } from '../../lib/knowledge-bank/commands/list-links.ts';
import { listKnowledgeBankLinks as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => ({
  body: { ok: true, links: await listLinks(auth, params.articleId, query.view) },
}));
