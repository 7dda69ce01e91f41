/**
 * GET /knowledge-bank/links: the workspace's distinct external URLs with their last check (one
 * Query), in URL order; by offset or by cursor. Read-only keys see live content only, so only the
 * links of live revisions.
 */
import { canWrite } from '../../lib/knowledge-bank/access.ts';
import { externalLinks } from '../../lib/knowledge-bank/link-check/results.ts';
import { linkItemsOf } from '../../lib/knowledge-bank/link-check/store.ts';
import { listKnowledgeBankExternalLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function listExternalLinks({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const writer = canWrite(auth);
  const { limit, offset, cursor, status } = query;
  // Bound to the filter and the key's view: a cursor's place means something only under them.
  const list = `${route.operationId}:${JSON.stringify([writer, status ?? null])}`;
  const page = await paginate({ workspace: slug, list, limit, offset, cursor }, async (start) => {
    const items = await linkItemsOf(slug);
    const all = externalLinks(writer ? items : items.filter((item) => item.sk.endsWith('#LIVE')));
    const matching = status ? all.filter((link) => link.status === status) : all;
    let from = start.offset;
    if (start.after) {
      const after = start.after.url;
      if (typeof after !== 'string') throw new Error('A cursor for links named no place in their order');
      // Links come sorted by URL: a cursor resumes after its URL even if links came or went since.
      const next = matching.findIndex((link) => link.url > after);
      from = next === -1 ? matching.length : next;
    }
    const shown = matching.slice(from, from + limit);
    const last = shown.at(-1);
    return {
      items: shown,
      total: matching.length,
      hasMore: from + limit < matching.length,
      lastKey: last && { url: last.url },
      returned: shown.length,
    };
  });
  return {
    body: {
      ok: true,
      links: page.items,
      pagination: { limit, offset: page.offset, total: page.total, hasMore: page.hasMore, nextCursor: page.nextCursor },
    },
  };
}

export const handler = apiHandler(route).handler(listExternalLinks);
