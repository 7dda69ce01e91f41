/** GET /ideas/{id}/votes: a page of the votes that count for the idea, beside its shards (the total) and its gate (404). */
import type { PageStart } from '../../platform/pagination.ts';
import { ideaNotFound } from '../errors.ts';
import { findVoteGate } from '../store/ranks.ts';
import { listVotes, type VotePage } from '../store/votes.ts';

export async function listIdeaVotes(workspace: string, ideaId: string, page: PageStart): Promise<VotePage> {
  const [gate, votes] = await Promise.all([findVoteGate(workspace, ideaId, { consistent: true }), listVotes(workspace, ideaId, page)]);
  if (!gate) throw ideaNotFound();
  return votes;
}
