/** POST /knowledge-bank/articles: create a draft; safe to retry with an Idempotency-Key. */

import { createArticle as storeArticle } from '../../lib/knowledge-bank/content-writes.ts';
import { articleNotFound } from '../../lib/knowledge-bank/errors.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { createKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { findArticle } from '../../lib/knowledge-bank/store/articles.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createArticle({ body, idempotency, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { article, replayed } = await storeArticle(auth.workspace.slug, body, idempotency);
  return answer(article, replayed);
}

type Stored = NonNullable<Awaited<ReturnType<typeof findArticle>>>;

function answer(article: Stored, replayed: boolean): ApiResult<typeof route> {
  return {
    body: { ok: true, article: toArticle(article.item, article.content, 'draft') },
    headers: { ETag: etagOf(article.item.version), ...replayHeaders(replayed) },
  };
}

/** The remembered response names the article; a replay reads its draft as it is now (404 once deleted), as the store's own replay does. */
export const handler = apiHandler(route).handler(createArticle, {
  replay: async (remembered, { auth }) => {
    const article = await findArticle(auth.workspace.slug, (remembered as { articleId: string }).articleId, 'draft');
    if (!article) throw articleNotFound();
    return answer(article, false);
  },
});
