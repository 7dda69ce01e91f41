/**
 * GET /knowledge-bank/links: the workspace's distinct external URLs with their last check (one
 * Query). Read-only keys see live content only, so only the links of live revisions.
 */
import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { externalLinks } from '../../lib/knowledge-bank/link-check/results.ts';
import { linkItemsOf } from '../../lib/knowledge-bank/link-check/store.ts';
import { listKnowledgeBankExternalLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listExternalLinks({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const items = await linkItemsOf(auth.workspace.slug);
  const all = externalLinks(canWrite(auth) ? items : items.filter((item) => item.sk.endsWith('#LIVE')));
  const matching = query.status ? all.filter((link) => link.status === query.status) : all;
  const links = matching.slice(query.offset, query.offset + query.limit);
  return {
    body: {
      ok: true,
      links,
      pagination: {
        limit: query.limit,
        offset: query.offset,
        total: matching.length,
        hasMore: query.offset + links.length < matching.length,
      },
    },
  };
}

export const handler = apiHandler(route).handler(listExternalLinks);
