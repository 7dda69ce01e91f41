/** PUT /knowledge-bank/articles/{articleId}/draft: replace the draft, its links and backlinks at once. */

import { saveDraft as storeDraft } from '../../lib/knowledge-bank/content-writes.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { saveKnowledgeBankDraft as route } from '../../lib/knowledge-bank/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function saveDraft({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { item, content } = await storeDraft(auth.workspace.slug, params.articleId, body, precondition);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(saveDraft);
