/**
 * Votes written straight to the table, as the votes store writes them (lib/ideas/vote-record.ts's item,
 * the vote-count shards summed with lib/ideas/vote-count.ts's own deltas): 10,000 votes in seconds,
 * where casting them one request at a time would take minutes on this machine. What is under test
 * (merging them) then runs through the API. The voters' references are made up (the real ones are
 * keyed by the sandbox's secret): any 22 characters are an opaque reference.
 */
import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { voteIdOf } from '../../lib/ideas/people.ts';
import { type Importance, shardDeltas, voteShardOf } from '../../lib/ideas/vote-count.ts';
import { voteCountEntity } from '../../lib/ideas/vote-entities.ts';
import { voteItem } from '../../lib/ideas/vote-record.ts';
import { adminStore } from './fixtures.ts';

const IMPORTANCES: Importance[] = ['nice', 'important', 'critical'];

/** A made-up voter reference of the real length. */
export const seededRef = (name: string) => `seed-${name}`.padEnd(22, '-');

/** Votes of `refs` on the idea, each counted on its shard; returns nothing until every item is written. */
export async function seedVotes(slug: string, ideaId: string, refs: readonly string[]): Promise<void> {
  const { db, table } = adminStore();
  const now = new Date().toISOString();
  const shards = new Map<number, Record<string, number>>();
  const items = refs.map((voterRef, i) => {
    const id = voteIdOf(ideaId, voterRef);
    const vote = {
      id,
      ideaId,
      voterRef,
      importance: IMPORTANCES[i % 3] as Importance,
      note: null,
      direct: true,
      mergedFrom: [],
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    const shard = shards.get(voteShardOf(id)) ?? {};
    for (const [name, by] of Object.entries(shardDeltas(null, vote))) shard[name] = (shard[name] ?? 0) + by;
    shards.set(voteShardOf(id), shard);
    return voteItem(slug, vote);
  });
  const chunks = Array.from({ length: Math.ceil(items.length / 25) }, (_, i) => items.slice(i * 25, (i + 1) * 25));
  for (let i = 0; i < chunks.length; i += 16) {
    await Promise.all(
      chunks.slice(i, i + 16).map(async (chunk) => {
        let pending = chunk.map((Item) => ({ PutRequest: { Item } }));
        while (pending.length > 0) {
          const { UnprocessedItems } = await db.send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
          pending = (UnprocessedItems?.[table] ?? []) as typeof pending;
        }
      }),
    );
  }
  await Promise.all(
    [...shards].map(([shard, deltas]) => {
      const names = Object.keys(deltas);
      return db.send(
        new UpdateCommand({
          TableName: table,
          Key: voteCountEntity.keys.shard(slug, ideaId, shard),
          UpdateExpression: `SET entity = :entity ADD ${names.map((_, i) => `#a${i} :a${i}`).join(', ')}`,
          ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#a${i}`, name])),
          ExpressionAttributeValues: {
            ':entity': voteCountEntity.name,
            ...Object.fromEntries(names.map((name, i) => [`:a${i}`, deltas[name]])),
          },
        }),
      );
    }),
  );
}
