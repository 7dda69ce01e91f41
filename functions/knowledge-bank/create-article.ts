/** POST /knowledge-bank/articles: create a draft; safe to retry with an Idempotency-Key. */
import { createArticle, createdArticle } from '../../lib/knowledge-bank/commands/create-article.ts';
import { createKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import type { Article } from '../../lib/knowledge-bank/schemas.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';

const answer = ({ article, replayed }: { article: Article; replayed: boolean }) => ({
  body: { ok: true as const, article },
  headers: { ETag: etagOf(article.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, idempotency, auth }) => answer(await createArticle(auth.workspace.slug, body, idempotency)),
  {
    replay: async (remembered, { auth }) => answer({ article: await createdArticle(auth.workspace.slug, remembered), replayed: false }),
  },
);
