/**
 * The ideas' own work on the table stream (lib/ideas/stream-readers.ts selects it), one command for a
 * batch:
 *   - an idea whose votes changed gets its ranks written again from its shards' sums (one Query of its
 *     shards, one transaction of its two ranks per idea per batch, not per vote: at 2,000 votes a
 *     second on one idea, a few writes a second);
 *   - a merge or an unmerge whose request handed its move off (it ran out of time: the idea's
 *     `mergeHandoff`) has the rest of its votes moved, as its gate says;
 *   - a deleted idea's votes, shards and comments are removed, as is what a vote cast in the instant of
 *     its deletion left (its ranks are gone: the fold finds no idea to rank).
 * Every step is idempotent: a record read twice changes nothing more.
 */
import { deleteIdeaLeftovers } from '../store/leftovers.ts';
import { finishMergeWork, moveVotes } from '../store/merges.ts';
import { findVoteGate, writeRanks } from '../store/ranks.ts';
import { readVoteCounts } from '../store/vote-counts.ts';

const PARALLEL_IDEAS = 10;

interface IdeaRef {
  workspace: string;
  ideaId: string;
}

export interface IdeaChanges {
  /** Ideas some of whose votes appeared or went. */
  voted: IdeaRef[];
  /** Ideas deleted. */
  deleted: IdeaRef[];
  /** Ideas whose merge or unmerge was handed off with votes left to move (their gate says which). */
  merged: IdeaRef[];
}

const keyOf = ({ workspace, ideaId }: IdeaRef) => `${workspace}\u0000${ideaId}`;

async function inTurns<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL_IDEAS) await Promise.all(items.slice(i, i + PARALLEL_IDEAS).map(run));
}

export async function foldIdeaChanges(changes: IdeaChanges): Promise<{ ranked: number; cleaned: number; moved: number }> {
  let moved = 0;
  for (const { workspace, ideaId } of changes.merged) {
    const gate = await findVoteGate(workspace, ideaId, { consistent: true });
    const target = gate?.mergeWork === 'merge' ? gate.mergedInto : gate?.mergeTarget;
    if (!gate?.mergeWork || !target) continue;
    if ((await moveVotes(workspace, gate.mergeWork, ideaId, target, gate.mergeGeneration)) === 'moved') {
      await finishMergeWork(workspace, ideaId, gate.mergeWork, gate.mergeGeneration);
    }
    moved++;
  }
  const gone = new Map(changes.deleted.map((idea) => [keyOf(idea), idea]));
  const voted = [...new Map(changes.voted.map((idea) => [keyOf(idea), idea])).values()].filter((idea) => !gone.has(keyOf(idea)));
  let ranked = 0;
  await inTurns(voted, async (idea) => {
    const outcome = await writeRanks(idea.workspace, idea.ideaId, await readVoteCounts(idea.workspace, idea.ideaId));
    if (outcome === 'gone') gone.set(keyOf(idea), idea);
    else ranked++;
  });
  let cleaned = 0;
  await inTurns([...gone.values()], async (idea) => {
    cleaned += await deleteIdeaLeftovers(idea.workspace, idea.ideaId);
  });
  return { ranked, cleaned, moved };
}
