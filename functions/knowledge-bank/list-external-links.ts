/**
 * GET /knowledge-bank/links: the workspace's distinct external URLs with their last check (one
 * Query), in URL order; by offset or by cursor. Read-only keys see live content only, so only the
 * links of live revisions.
 */
import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { externalLinks } from '../../lib/knowledge-bank/link-check/results.ts';
import { linkItemsOf } from '../../lib/knowledge-bank/link-check/store.ts';
import { listKnowledgeBankExternalLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { pageOfSorted, paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listExternalLinks({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const writer = canWrite(auth);
  const { limit, status } = query;
  const page = await paginate(pageStart, async (start) => {
    const items = await linkItemsOf(slug);
    const all = externalLinks(writer ? items : items.filter((item) => item.sk.endsWith('#LIVE')));
    const matching = status ? all.filter((link) => link.status === status) : all;
    // Links come sorted by URL: a cursor resumes after its URL even if links came or went since.
    return pageOfSorted(matching, start, {
      keyOf: (link) => ({ url: link.url }),
      follows: (link, place) => {
        if (typeof place.url !== 'string') throw new Error('A cursor for links named no place in their order');
        return link.url > place.url;
      },
    });
  });
  return {
    body: {
      ok: true,
      links: page.items,
      pagination: { limit, offset: page.offset, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor },
    },
  };
}

export const handler = listHandler(route).handler(listExternalLinks);
