/**
 * POST /ideas/{id}/votes: the voter's reference (a keyed hash: lib/ideas/people.ts) and the idea's gate
 * read together, then one transaction that counts the voter once (store/votes.ts).
 */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { ideaMerged, ideaNotFound } from '../errors.ts';
import { personRefOf } from '../people.ts';
import { findVoteGate } from '../store/ranks.ts';
import { voteOnIdea as storeVote, type VoteAnswer } from '../store/votes.ts';
import type { VoteWrite } from '../vote-schemas.ts';

export type { VoteAnswer };

export async function voteOnIdea(
  workspace: string,
  ideaId: string,
  write: VoteWrite,
  idempotency: IdempotentRequest | undefined,
): Promise<{ answer: VoteAnswer; replayed: boolean }> {
  const [voterRef, gate] = await Promise.all([personRefOf(workspace, write.voter), findVoteGate(workspace, ideaId)]);
  if (!gate) throw ideaNotFound();
  if (gate.mergedInto) throw ideaMerged(gate.mergedInto);
  return storeVote(workspace, ideaId, voterRef, { importance: write.importance, note: write.note }, idempotency);
}
