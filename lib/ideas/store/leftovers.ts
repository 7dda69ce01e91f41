/**
 * What a deleted idea leaves behind: its votes, vote-count shards, comments and comment counter, which
 * its delete transaction could not hold (an idea may have 10,000 votes). The table stream's fold
 * removes them once the idea is gone (commands/fold-idea-changes.ts): each vote is first marked
 * `ideaDeleted`, so its removal is no `idea.unvoted` event (lib/ideas/stream.ts), then every item is
 * deleted in batches. Run twice, the second run finds nothing.
 */
import { deleteMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { update } from '../../platform/data/update.ts';
import { commentCounterEntity, commentEntity } from '../comment-entities.ts';
import { voteCountEntity, voteEntity } from '../vote-entities.ts';

const PARALLEL_MARKS = 25;

function keysBetween(workspace: string, from: string, to: string) {
  return queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': from, ':to': to },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  }) as Promise<{ pk: string; sk: string }[]>;
}

/** Delete everything of the idea but the idea itself; answers how many items went. */
export async function deleteIdeaLeftovers(workspace: string, ideaId: string): Promise<number> {
  const votes = voteEntity.keys.range(ideaId);
  const shards = voteCountEntity.keys.prefix(ideaId);
  const comments = commentEntity.keys.range(ideaId);
  const [voteKeys, shardKeys, commentKeys] = await Promise.all([
    keysBetween(workspace, votes.from, votes.to),
    keysBetween(workspace, shards, `${shards}~`),
    keysBetween(workspace, comments.from, comments.to),
  ]);
  for (let i = 0; i < voteKeys.length; i += PARALLEL_MARKS) {
    await Promise.all(
      voteKeys.slice(i, i + PARALLEL_MARKS).map((key) =>
        updateItem({
          TableName: tableName,
          Key: key,
          ...update().set('ideaDeleted', true).build({ expression: 'attribute_exists(pk)' }),
        }),
      ),
    );
  }
  const all = [...voteKeys, ...shardKeys, ...commentKeys, commentCounterEntity.keys.counter(workspace, ideaId)];
  await deleteMany(all);
  return all.length - 1;
}
