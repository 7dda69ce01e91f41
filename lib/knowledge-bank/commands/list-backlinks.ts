/** GET the articles linking to one (a GetItem beside one Query of its backlink items); drafts' links for write keys only. */
import type { AuthContext } from '../../platform/auth/context.ts';
import { canWrite, visibleTo } from '../access.ts';
import { backlinkRecords } from '../record.ts';
import type { Backlink } from '../schemas.ts';
import { findBacklinks } from '../store/links.ts';

export async function listBacklinks(caller: AuthContext, articleId: string): Promise<Backlink[]> {
  const found = await findBacklinks(caller.workspace.slug, articleId);
  visibleTo(caller, found?.meta);
  return backlinkRecords(found?.backlinks ?? [], { includeDrafts: canWrite(caller) });
}
