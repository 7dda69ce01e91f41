/** POST /knowledge-bank/articles/{articleId}/revisions/{revision}/restore: copy a revision into the draft. */

import { restoreRevision as storeRestore } from '../../lib/knowledge-bank/content-writes.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { restoreKnowledgeBankRevision as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function restoreRevision({ params, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { item, content } = await storeRestore(auth.workspace.slug, params.articleId, params.revision, precondition);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(restoreRevision);
