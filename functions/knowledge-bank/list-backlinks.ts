/** GET /knowledge-bank/articles/{articleId}/backlinks: articles linking here (one Query of backlink items). */

import { canWrite, visibleTo } from '../../lib/knowledge-bank/access.ts';
import { backlinkRecords } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankBacklinks as route } from '../../lib/knowledge-bank/routes.ts';
import { findBacklinks } from '../../lib/knowledge-bank/store/links.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listBacklinks({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const found = await findBacklinks(auth.workspace.slug, params.articleId);
  visibleTo(auth, found?.meta);
  const backlinks = backlinkRecords(found?.backlinks ?? [], { includeDrafts: canWrite(auth) });
  return { body: { ok: true, backlinks } };
}

export const handler = apiHandler(route).handler(listBacklinks);
