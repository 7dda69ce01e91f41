/**
 * What ideas keep about one person, erased (the ideas part of `POST /people/erase`, lib/people/): their
 * votes and comments deleted, each in one transaction with its count (so every count stays exact), and
 * the ideas they submitted anonymised (submitter, its hashes and the customer context removed; the idea
 * stays). Found by the person's references (lib/ideas/people.ts, store/people.ts), never by an
 * identifier. At most `budget` records of each kind per call; a vote on an idea whose merge is still
 * moving votes is left for the next call (`hasMore`), since the move may carry it again.
 */
import { VersionConflictError } from '../../platform/errors.ts';
import { commentNotFound } from '../errors.ts';
import type { PersonIdentity } from '../people.ts';
import { personRefOf } from '../people.ts';
import { deleteIdeaComment } from '../store/comments.ts';
import { anonymiseSubmittedIdea, findPersonRecords } from '../store/people.ts';
import { deleteVote, findVotesAndGates } from '../store/votes.ts';

const PARALLEL = 10;

export interface ErasedIdeaRecords {
  ideaVotes: number;
  ideaComments: number;
  ideas: number;
  hasMore: boolean;
}

async function inTurns<T>(items: readonly T[], run: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL) await Promise.all(items.slice(i, i + PARALLEL).map(run));
}

export async function erasePersonIdeas(workspace: string, who: readonly PersonIdentity[], budget: number): Promise<ErasedIdeaRecords> {
  const erased: ErasedIdeaRecords = { ideaVotes: 0, ideaComments: 0, ideas: 0, hasMore: false };
  for (const ref of await Promise.all(who.map((identity) => personRefOf(workspace, identity)))) {
    const records = await findPersonRecords(workspace, ref, budget);
    erased.hasMore ||= records.hasMore;
    const votes = await findVotesAndGates(workspace, records.votes);
    await inTurns(votes, async ({ vote, gate }) => {
      if (!vote) return;
      if (gate?.mergeWork) {
        erased.hasMore = true;
        return;
      }
      try {
        await deleteVote(workspace, vote, [], undefined, { evenIfClosed: true });
        erased.ideaVotes++;
      } catch (error) {
        // Changed since it was read (the voter voted again this instant): the next call erases it.
        if (!(error instanceof VersionConflictError)) throw error;
        erased.hasMore = true;
      }
    });
    await inTurns(records.comments, async ({ ideaId, commentId }) => {
      try {
        await deleteIdeaComment(workspace, ideaId, commentId, undefined);
        erased.ideaComments++;
      } catch (error) {
        // Deleted meanwhile (its idea's cleanup, or another erasure): nothing left of it.
        if ((error as { code?: string }).code !== commentNotFound().code) throw error;
      }
    });
    await inTurns(records.ideas, async (ideaId) => {
      if (await anonymiseSubmittedIdea(workspace, ideaId, ref)) erased.ideas++;
    });
  }
  return erased;
}
