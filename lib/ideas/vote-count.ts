/**
 * How an idea's votes are counted, as pure rules over plain data: the count is sharded so that one
 * viral idea takes thousands of votes a second (docs/ideas.md, "Votes at scale"), and summed on read.
 *
 * A vote is one item per (idea, voter); its transaction also adds to ONE of the idea's VOTE_SHARDS
 * count items, the one its vote id hashes to, so no single item takes every vote: a vote writes its
 * own item and one shard, each billed twice inside a transaction (2 write units each for items under
 * 1 KB), so 2,000 votes a second put 4,000 units a second on the shards, 125 on each of 32, where a
 * partition serves 1,000. Transactions touching one item at once also cancel each other
 * (TransactionConflict, retried by the data kit); 32 shards keep that to about 60 a second per item
 * at 2,000 votes a second, what the survey-response counters see at their target.
 *
 * Each shard holds `votes`, the importance counts, the trend sums (trending.ts) and `seq`, which
 * every change adds 1 to, so the sum of `seq` over the shards only grows: the ranking fold keeps the
 * ranks of the latest sum it read and never goes back to an older one.
 */
import { createHash } from 'node:crypto';
import { trendAttributeOf, trendWeightOf } from './trending.ts';

export const VOTE_SHARDS = 32;

export const IMPORTANCES = ['nice', 'important', 'critical'] as const;
export type Importance = (typeof IMPORTANCES)[number];

/** The counts an idea shows: its voters, and how many said each importance. */
export interface VoteCounts {
  voteCount: number;
  importance: Record<Importance, number>;
}

/** What the fold reads of the shards: the counts, the trend sums' attributes, and the change sequence. */
export interface ShardSums extends VoteCounts {
  seq: number;
  items: Record<string, unknown>[];
}

/** Which shard a vote counts on: a stable hash of its id, uniform over the shards. */
export function voteShardOf(voteId: string): number {
  return Number.parseInt(createHash('sha256').update(voteId).digest('hex').slice(0, 8), 16) % VOTE_SHARDS;
}

/** The counts of shard items (none: no vote yet). */
export function sumShards(items: readonly Record<string, unknown>[]): ShardSums {
  const number = (item: Record<string, unknown>, name: string) => (typeof item[name] === 'number' ? (item[name] as number) : 0);
  const sums: ShardSums = { voteCount: 0, importance: { nice: 0, important: 0, critical: 0 }, seq: 0, items: [...items] };
  for (const item of items) {
    sums.voteCount += number(item, 'votes');
    sums.seq += number(item, 'seq');
    for (const importance of IMPORTANCES) sums.importance[importance] += number(item, importance);
  }
  return sums;
}

/** What counts of a vote: whether it counts at all, its importance, and when it was cast (its trend weight). */
export interface CountedVote {
  importance: Importance;
  createdAt: string;
}

/**
 * The ADDs to a vote's shard when a counted vote appears (`before` null), goes (`after` null) or
 * changes importance: `votes`, the importance counts and the trend sum of its period. `seq` moves
 * with every change; an unchanged vote adds nothing else.
 */
export function shardDeltas(before: CountedVote | null, after: CountedVote | null): Record<string, number> {
  const deltas: Record<string, number> = { seq: 1 };
  const add = (name: string, by: number) => {
    deltas[name] = (deltas[name] ?? 0) + by;
  };
  if (before) {
    add('votes', -1);
    add(before.importance, -1);
    add(trendAttributeOf(before.createdAt), -trendWeightOf(before.createdAt));
  }
  if (after) {
    add('votes', 1);
    add(after.importance, 1);
    add(trendAttributeOf(after.createdAt), trendWeightOf(after.createdAt));
  }
  for (const [name, by] of Object.entries(deltas)) if (by === 0 && name !== 'seq') delete deltas[name];
  return deltas;
}
