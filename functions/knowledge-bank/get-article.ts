/** GET /knowledge-bank/articles/{articleId}: the draft or the live revision (one BatchGet). */

import { viewFor, visibleTo } from '../../lib/knowledge-bank/access.ts';
import { articleNotFound } from '../../lib/knowledge-bank/errors.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { getKnowledgeBankArticle as route } from '../../lib/knowledge-bank/routes.ts';
import { findArticle as readArticle } from '../../lib/knowledge-bank/store/articles.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getArticle({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const view = viewFor(auth, query.view);
  const found = await readArticle(auth.workspace.slug, params.articleId, view);
  const item = visibleTo(auth, found?.item);
  // A live view of an article that is not live now (unpublished: its live copy is gone) is a 404.
  if (!found || (view === 'live' && item.status !== 'published')) throw articleNotFound();
  return { body: { ok: true, article: toArticle(item, found.content, view) }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(getArticle);
