/**
 * Who sees what. Keys holding `knowledge-bank:write` work on drafts and see everything; read-only
 * keys see live content only, and an article that is not published now does not exist for them.
 */
import { type AuthContext, holds } from '../platform/auth/context.ts';
import { ForbiddenError } from '../platform/errors.ts';
import { articleNotFound } from './errors.ts';
import type { ArticleItem } from './record.ts';

export type View = 'draft' | 'live';

export const canWrite = (auth: AuthContext) => holds(auth, 'knowledge-bank:write');

/** The view a request gets: the one asked for, else the key's default; a read-only key may not ask for drafts. */
export function viewFor(auth: AuthContext, asked: View | undefined): View {
  if (!canWrite(auth)) {
    if (asked === 'draft') throw new ForbiddenError('missing_permission', 'Reading drafts needs a key holding knowledge-bank:write');
    return 'live';
  }
  return asked ?? 'draft';
}

/** The article's metadata as this key may see it, or the 404 it must get. */
export function visibleTo(auth: AuthContext, item: ArticleItem | null | undefined): ArticleItem {
  if (!item || (!canWrite(auth) && item.status !== 'published')) throw articleNotFound();
  return item;
}
