/**
 * GET a page of the workspace's distinct external URLs with their last check, in URL order (one
 * Query of the links items). Read-only keys see live content only, so only the links of live
 * revisions.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type ListPage, pageOfSorted, paginate } from '../../platform/pagination.ts';
import { canWrite } from '../access.ts';
import { externalLinks } from '../link-check/results.ts';
import { linkItemsOf } from '../link-check/store/links.ts';
import type { ListedPage } from '../listing.ts';
import type { ExternalLinkRecord } from '../search/schemas.ts';

export async function listExternalLinks(
  caller: AuthContext,
  status: ExternalLinkRecord['status'] | undefined,
  page: ListPage,
): Promise<ListedPage<ExternalLinkRecord>> {
  const views = canWrite(caller) ? 'all' : 'live';
  return paginate(page, async (start) => {
    const all = externalLinks(await linkItemsOf(caller.workspace.slug, views));
    if (start.after && typeof start.after.url !== 'string') throw new Error('A cursor for links named no place in their order');
    const matching = status ? all.filter((link) => link.status === status) : all;
    // Links come sorted by URL: a cursor resumes after its URL even if links came or went since.
    return pageOfSorted(matching, start, { keyOf: (link) => ({ url: link.url }), follows: (link, place) => link.url > String(place.url) });
  });
}
