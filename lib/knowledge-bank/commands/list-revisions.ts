/**
 * GET a page of an article's revisions, newest first: a GetItem of the article (404 before any
 * cursor is opened), then a Query of just the page, whose range comes from its latest revision.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type ListPage, paginate } from '../../platform/pagination.ts';
import { visibleTo } from '../access.ts';
import type { ListedPage } from '../listing.ts';
import { toRevisionSummary } from '../record.ts';
import type { RevisionSummary } from '../schemas.ts';
import { findArticleItem } from '../store/articles.ts';
import { readRevisionPage } from '../store/revisions.ts';

export async function listRevisions(caller: AuthContext, articleId: string, page: ListPage): Promise<ListedPage<RevisionSummary>> {
  const workspace = caller.workspace.slug;
  const meta = visibleTo(caller, await findArticleItem(workspace, articleId));
  const listed = await paginate(page, (start) => readRevisionPage(workspace, meta, start));
  return { ...listed, items: listed.items.map(toRevisionSummary) };
}
