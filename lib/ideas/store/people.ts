/**
 * Where the erasure of a person finds what ideas keep about them, by their reference (lib/ideas/people.ts),
 * never by an identifier:
 *   votes and comments   their gsi1 entries under `WS#<ws>#PERSON#<ref>` (one Query page per 1 MB of
 *                        keys); gsi1 is eventually consistent (DynamoDB offers nothing else on a global
 *                        index), so a vote cast in the second before an erasure may only be found by the
 *                        next call (docs/people.md)
 *   submitted ideas      index items `IDEAPERSON#<ref>#<ideaId>`, one per identifier the idea was submitted
 *                        with, written with the idea (strongly consistent); an idea whose submitter was
 *                        replaced keeps the old person's item until an erasure finds it names no one there
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { keys } from '../../platform/data/keys.ts';
import { TABLE } from '../../platform/data/table.ts';
import { type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { ideaEntity, submitterIndexEntity } from '../entities.ts';
import { personListing } from '../vote-entities.ts';

type Item = Record<string, unknown>;

const submitterIndexKey = submitterIndexEntity.keys.index;

/** The Puts of an idea's submitter index items, one per reference, for the idea's own write. */
export function submitterIndexWrites(workspace: string, ideaId: string, refs: readonly string[]): Record<string, TransactWrite> {
  return Object.fromEntries(
    refs.map((ref, i) => [
      `submitterIndex${i}`,
      {
        Put: {
          TableName: tableName,
          Item: { ...submitterIndexKey(workspace, ref, ideaId), entity: submitterIndexEntity.name, workspace, ideaId },
        },
      },
    ]),
  );
}

const submitterIndexDelete = (workspace: string, personRef: string, ideaId: string): TransactWrite => ({
  Delete: { TableName: tableName, Key: submitterIndexKey(workspace, personRef, ideaId) },
});

export interface PersonRecords {
  /** Votes by (idea, vote id) and comments by (idea, comment id), from their sort keys. */
  votes: { ideaId: string; voteId: string }[];
  comments: { ideaId: string; commentId: string }[];
  /** Ideas an index item says they submitted. */
  ideas: string[];
  /** More than `limit` were found: the caller comes back for them. */
  hasMore: boolean;
}

/** Up to `limit` records of the person in each kind, one Query each (votes and comments together). */
export async function findPersonRecords(workspace: string, personRef: string, limit: number): Promise<PersonRecords> {
  const [listed, indexed] = await Promise.all([
    dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: TABLE.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': personListing(workspace, personRef) },
        Limit: limit,
      }),
    ),
    dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': submitterIndexEntity.keys.prefix(personRef) },
        ConsistentRead: true,
        Limit: limit,
      }),
    ),
  ]);
  const records: PersonRecords = {
    votes: [],
    comments: [],
    ideas: [],
    hasMore: Boolean(listed.LastEvaluatedKey || indexed.LastEvaluatedKey),
  };
  for (const item of (listed.Items ?? []) as Item[]) {
    const [kind, ideaId, id] = (item.sk as string).split('#');
    if (kind === 'IDEAVOTE' && ideaId && id) records.votes.push({ ideaId, voteId: id });
    if (kind === 'IDEACOMMENT' && ideaId && id) records.comments.push({ ideaId, commentId: id });
  }
  for (const item of (indexed.Items ?? []) as Item[]) records.ideas.push(item.ideaId as string);
  return records;
}

/**
 * Remove the submitter from an idea an index item says this person submitted: their identifiers, both
 * hashes and the customer context go, the idea stays (its version too: nothing a reader sees changed),
 * and so do the index items of every identifier it was submitted with. Answers false when the idea no
 * longer names them (deleted, or its submitter replaced): the index item was stale, and goes.
 */
export async function anonymiseSubmittedIdea(workspace: string, ideaId: string, personRef: string): Promise<boolean> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: ideaEntity.keys.idea(workspace, ideaId),
      ProjectionExpression: 'submitterRefs',
      ConsistentRead: true,
    }),
  );
  const refs = Item?.submitterRefs instanceof Set ? [...(Item.submitterRefs as Set<string>)] : [];
  const named = refs.includes(personRef);
  if (named) {
    const outcome = await updateItem({
      TableName: tableName,
      Key: ideaEntity.keys.idea(workspace, ideaId),
      ...update()
        .remove('submitter')
        .remove('submitterHash')
        .remove('submitterRefs')
        .remove('customerContext')
        .build({ expression: 'contains(submitterRefs, :ref)', values: { ':ref': personRef } }),
    });
    if (!outcome.written) return anonymiseSubmittedIdea(workspace, ideaId, personRef);
  }
  const stale = [...new Set([personRef, ...(named ? refs : [])])];
  await transact(Object.fromEntries(stale.map((ref, i) => [`index${i}`, submitterIndexDelete(workspace, ref, ideaId)])));
  return named;
}
