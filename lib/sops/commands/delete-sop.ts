/**
 * DELETE /sops/{id}: the SOP and all its review comments, in any state. A transaction holds 100
 * items: beyond 99 comments the oldest go first, and the SOP goes last with the rest, so a failure
 * midway leaves the SOP in place for a retry; a send-back landing in between makes it read again.
 */
import { conflictBackoff } from '../../platform/data/conditions.ts';
import { sopNotFound } from '../errors.ts';
import { SOP_WRITE_ATTEMPTS } from '../store/serials.ts';
import { deleteSopComments, deleteSopWithComments, findSopCollectionKeys, isSopDeleteRace } from '../store/sops.ts';

export async function deleteSop(workspace: string, id: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const collection = await findSopCollectionKeys(workspace, id);
    if (!collection) throw sopNotFound();
    const { sop, comments } = collection;
    const overflow = comments.slice(0, Math.max(0, comments.length - 99));
    for (let start = 0; start < overflow.length; start += 100) await deleteSopComments(overflow.slice(start, start + 100));
    try {
      await deleteSopWithComments(workspace, id, sop, comments.slice(overflow.length));
      return;
    } catch (error) {
      if (!isSopDeleteRace(error) || attempt >= SOP_WRITE_ATTEMPTS) throw error;
    }
    await conflictBackoff(attempt);
  }
}
