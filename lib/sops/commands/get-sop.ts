/**
 * GET /sops/{id}: one SOP, with its review comments for keys that work on SOPs. A read-only key gets
 * the SOP item alone (its comments are never read) and only once published; anything else is
 * indistinguishable from an SOP that does not exist.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { sopNotFound } from '../errors.ts';
import type { Sop, SopComment } from '../record.ts';
import { findSop, findSopWithComments } from '../store/sops.ts';
import { seesUnpublishedSops } from '../visibility.ts';

export async function getSop(workspace: string, id: string, viewer: AuthContext): Promise<{ sop: Sop; comments: SopComment[] }> {
  if (seesUnpublishedSops(viewer)) {
    const found = await findSopWithComments(workspace, id);
    if (!found) throw sopNotFound();
    return found;
  }
  const sop = await findSop(workspace, id);
  if (sop?.status !== 'published') throw sopNotFound();
  return { sop, comments: [] };
}
