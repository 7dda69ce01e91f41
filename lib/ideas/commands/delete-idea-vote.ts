/**
 * DELETE /ideas/{id}/votes/{voteId}: the vote and the idea's gate read together; for a vote that also
 * came from merged ideas, their votes of the same voter and their gates; then one transaction.
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import { ideaMerged, ideaNotFound, mergeInProgress, voteNotFound } from '../errors.ts';
import { deleteVote, findSourceVotes, findVoteAndGate } from '../store/votes.ts';

export async function deleteIdeaVote(workspace: string, ideaId: string, voteId: string, precondition: VersionPrecondition): Promise<void> {
  const { vote, gate } = await findVoteAndGate(workspace, ideaId, voteId);
  if (!gate) throw ideaNotFound();
  if (gate.mergedInto) throw ideaMerged(gate.mergedInto);
  if (!vote) throw voteNotFound();
  const sources = await findSourceVotes(workspace, vote);
  if (sources.some((source) => source.gate?.mergeWork)) throw mergeInProgress();
  await deleteVote(workspace, vote, sources, precondition);
}
