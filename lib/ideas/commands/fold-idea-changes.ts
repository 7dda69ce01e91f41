/**
 * The ideas' own work on the table stream (lib/ideas/stream-readers.ts selects it), one command for a
 * batch:
 *   - an idea whose votes changed gets its ranks written again from its shards' sums (one Query of its
 *     shards, one transaction of its two ranks per idea per batch, not per vote: at 2,000 votes a
 *     second on one idea, a few writes a second);
 *   - a merge or an unmerge whose commit left votes to move has them moved (what the request that
 *     committed it also does, so one cut short finishes here);
 *   - a deleted idea's votes, shards and comments are removed, as is what a vote cast in the instant of
 *     its deletion left (its ranks are gone: the fold finds no idea to rank).
 * Every step is idempotent: a record read twice changes nothing more.
 */
import type { MergeWork } from '../merging.ts';
import { deleteIdeaLeftovers } from '../store/leftovers.ts';
import { finishMergeWork, moveVotes } from '../store/merges.ts';
import { writeRanks } from '../store/ranks.ts';
import { readVoteCounts } from '../store/vote-counts.ts';

const PARALLEL_IDEAS = 10;

export interface IdeaRef {
  workspace: string;
  ideaId: string;
}

export interface MoveWork extends IdeaRef {
  kind: MergeWork;
  target: string;
  generation: number;
}

export interface IdeaChanges {
  /** Ideas some of whose votes appeared or went. */
  voted: IdeaRef[];
  /** Ideas deleted. */
  deleted: IdeaRef[];
  /** Merges and unmerges committed with votes to move. */
  moves: MoveWork[];
}

const keyOf = ({ workspace, ideaId }: IdeaRef) => `${workspace}\u0000${ideaId}`;

async function inTurns<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL_IDEAS) await Promise.all(items.slice(i, i + PARALLEL_IDEAS).map(run));
}

export async function foldIdeaChanges(changes: IdeaChanges): Promise<{ ranked: number; cleaned: number; moved: number }> {
  for (const move of changes.moves) {
    if (await moveVotes(move.workspace, move.kind, move.ideaId, move.target, move.generation)) {
      await finishMergeWork(move.workspace, move.ideaId, move.kind, move.generation);
    }
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
  return { ranked, cleaned, moved: changes.moves.length };
}
