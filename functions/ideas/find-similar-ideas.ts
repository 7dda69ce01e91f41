/** GET /ideas/similar: the workspace's ideas most like a text, in English and Arabic, with scores and shared words. */
import { findSimilarIdeas } from '../../lib/ideas/commands/find-similar-ideas.ts';
import { findSimilarIdeas as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => ({
  body: { ok: true, data: await findSimilarIdeas(auth.workspace.slug, query.q, { limit: query.limit }) },
}));
