/** GET /knowledge-bank/articles/{articleId}/links: outgoing links, internal ones checked against their targets. */

import { viewFor, visibleTo } from '../../lib/knowledge-bank/access.ts';
import { articleNotFound } from '../../lib/knowledge-bank/errors.ts';
import { linkRecords } from '../../lib/knowledge-bank/record.ts';
import { listKnowledgeBankLinks as route } from '../../lib/knowledge-bank/routes.ts';
import { findLinks } from '../../lib/knowledge-bank/store/links.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listLinks({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const view = viewFor(auth, query.view);
  const found = await findLinks(auth.workspace.slug, params.articleId, view === 'draft' ? 'DRAFT' : 'LIVE');
  const meta = visibleTo(auth, found?.meta);
  if (!found || (view === 'live' && meta.status !== 'published')) throw articleNotFound();
  return { body: { ok: true, links: linkRecords(found.links, found.targets) } };
}

export const handler = apiHandler(route).handler(listLinks);
