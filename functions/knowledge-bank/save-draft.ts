/** PUT /knowledge-bank/articles/{articleId}/draft: replace the draft, its links and backlinks at once. */

import { saveDraft as storeDraft } from '../../lib/knowledge-bank/content-writes.ts';
import { toArticle } from '../../lib/knowledge-bank/record.ts';
import { saveKnowledgeBankDraft as route } from '../../lib/knowledge-bank/routes.ts';
import { BadRequestError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, ifMatchPrecondition } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function saveDraft({ params, body, headers, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const precondition = ifMatchPrecondition(headers);
  // A whole-draft replace without a version would silently drop a colleague's edit.
  if (!precondition)
    throw new BadRequestError('if_match_required', 'Send If-Match with the ETag you read (or * to overwrite whatever is there)');
  const { item, content } = await storeDraft(auth.workspace.slug, params.articleId, body, precondition);
  return { body: { ok: true, article: toArticle(item, content, 'draft') }, headers: { ETag: etagOf(item.version) } };
}

export const handler = apiHandler(route).handler(saveDraft);
