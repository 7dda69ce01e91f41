/** GET an article: the draft or the live revision, as the caller's key may see it (one BatchGet). */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type View, viewFor, visibleTo } from '../access.ts';
import { articleNotFound } from '../errors.ts';
import { toArticle } from '../record.ts';
import type { Article } from '../schemas.ts';
import { findArticle } from '../store/articles.ts';

export async function getArticle(caller: AuthContext, articleId: string, asked: View | undefined): Promise<Article> {
  const view = viewFor(caller, asked);
  const found = await findArticle(caller.workspace.slug, articleId, view);
  const item = visibleTo(caller, found?.item);
  // A live view of an article that is not live now (unpublished: its live copy is gone) is a 404.
  if (!found || (view === 'live' && item.status !== 'published')) throw articleNotFound();
  return toArticle(item, found.content, view);
}
