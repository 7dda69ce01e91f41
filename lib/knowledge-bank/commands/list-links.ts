/** GET an article's outgoing links in the view asked for, internal ones checked against their targets (2 BatchGets). */
import type { AuthContext } from '../../platform/auth/context.ts';
import { type View, viewFor, visibleTo } from '../access.ts';
import { articleNotFound } from '../errors.ts';
import { linkRecords } from '../record.ts';
import type { Link } from '../schemas.ts';
import { findLinks } from '../store/links.ts';

export async function listLinks(caller: AuthContext, articleId: string, asked: View | undefined): Promise<Link[]> {
  const view = viewFor(caller, asked);
  const found = await findLinks(caller.workspace.slug, articleId, view === 'draft' ? 'DRAFT' : 'LIVE');
  const meta = visibleTo(caller, found?.meta);
  if (!found || (view === 'live' && meta.status !== 'published')) throw articleNotFound();
  return linkRecords(found.links, found.targets);
}
