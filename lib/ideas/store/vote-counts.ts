/**
 * The vote-count shards of ideas (lib/ideas/vote-count.ts): the writes a vote's transaction adds to
 * one of them, and the reads that sum them, strongly consistent, so a count read after a vote
 * answered includes it:
 *   one idea         one Query of its prefix (32 small items at most: one or two read units)
 *   a page of ideas  one Query of the shards of every idea between its first and last id (a page by
 *                    creation is one stretch of ids), or one Query per idea for a page in another order
 */
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import type { TransactWrite } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { type ShardSums, sumShards, voteShardOf } from '../vote-count.ts';
import { voteCountEntity } from '../vote-entities.ts';

type Item = Record<string, unknown>;

/**
 * The Update of a vote's shard: its ADDs, on condition that the idea is open to votes (`closed` names
 * the idea it was merged into) unless `evenIfClosed` (a vote removed by an unmerge, an erasure or a
 * voter withdrawing from the target: what a closed idea still allows).
 */
export function shardWrite(
  workspace: string,
  ideaId: string,
  voteId: string,
  deltas: Record<string, number>,
  options: { evenIfClosed?: boolean } = {},
): TransactWrite {
  const changed = update().set('entity', voteCountEntity.name);
  for (const [name, by] of Object.entries(deltas)) changed.add(name, by);
  return {
    Update: {
      TableName: tableName,
      Key: voteCountEntity.keys.shard(workspace, ideaId, voteShardOf(voteId)),
      ...changed.build(options.evenIfClosed ? undefined : { expression: 'attribute_not_exists(closed)' }),
    },
  };
}

/** Every shard of the idea (a merge closes them all, an unmerge opens them). */
export function everyShard(workspace: string, ideaId: string, shards: number): { pk: string; sk: string }[] {
  return Array.from({ length: shards }, (_, shard) => voteCountEntity.keys.shard(workspace, ideaId, shard));
}

/** The shard items between two sort keys of the workspace's partition, strongly consistent. */
function shardsBetween(workspace: string, from: string, to: string): Promise<Item[]> {
  return queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': from, ':to': to },
    ConsistentRead: true,
  });
}

/** The idea's counts, summed from its shards (zero when it has none). */
export async function readVoteCounts(workspace: string, ideaId: string): Promise<ShardSums> {
  const prefix = voteCountEntity.keys.prefix(ideaId);
  return sumShards(await shardsBetween(workspace, prefix, `${prefix}~`));
}

/** The counts of every idea whose id lies from `fromId` to `toId`, by idea id (absent: no vote). */
export async function readVoteCountsBetween(workspace: string, fromId: string, toId: string): Promise<Map<string, ShardSums>> {
  const { from, to } = voteCountEntity.keys.between(fromId, toId);
  return byIdea(await shardsBetween(workspace, from, to));
}

/** The counts of each of `ideaIds`, one Query each, all at once. */
export async function readVoteCountsOf(workspace: string, ideaIds: readonly string[]): Promise<Map<string, ShardSums>> {
  const counts = await Promise.all(ideaIds.map((id) => readVoteCounts(workspace, id)));
  return new Map(ideaIds.map((id, i) => [id, counts[i] as ShardSums]));
}

function byIdea(items: Item[]): Map<string, ShardSums> {
  const grouped = new Map<string, Item[]>();
  for (const item of items) {
    const id = voteCountEntity.keys.ideaIdOf(item.sk as string);
    grouped.set(id, [...(grouped.get(id) ?? []), item]);
  }
  return new Map([...grouped].map(([id, shards]) => [id, sumShards(shards)]));
}
