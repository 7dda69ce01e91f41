/**
 * Access patterns of comments (comment-entities.ts):
 *   create   TransactWrite: a ConditionCheck that the idea exists and is not merged, the comment, its
 *            counter (+ the remembered response under an Idempotency-Key)
 *   list     one Query of the idea's range (newest first) beside the idea's merge sources and the
 *            counter (one round); an idea others were merged into reads their ranges too, merged by id
 *            (a second round), and their counters in one BatchGetItem
 *   change   UpdateItem at the If-Match version; a change of visibility reads the comment first and
 *            moves it between the counter's counts in one transaction
 *   delete   GetItem, then TransactWrite: the comment at the version read, its counter
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { projection } from '../../platform/data/projection.ts';
import { readMerged } from '../../platform/data/sharded-ranges.ts';
import { counterAdd, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { commentCounterEntity, commentEntity, PUBLIC_COMMENT_ATTRIBUTES } from '../comment-entities.ts';
import { commentItem, toComment } from '../comment-record.ts';
import type { Comment, CommentPatch, CommentVisibility, CommentWrite } from '../comment-schemas.ts';
import { ideaEntity } from '../entities.ts';
import { commentNotFound, ideaMerged, ideaNotFound } from '../errors.ts';

type Item = Record<string, unknown>;

const publicProjection = projection(PUBLIC_COMMENT_ATTRIBUTES);

/** The idea's item key (lib/ideas/store/ideas.ts owns the idea; a comment only checks it). */
const ideaKey = (workspace: string, ideaId: string) => ideaEntity.keys.idea(workspace, ideaId);

export async function createIdeaComment(
  workspace: string,
  comment: Comment,
  write: CommentWrite,
  options: { keyId: string; idempotency: IdempotentRequest | undefined },
): Promise<{ comment: Comment; replayed: boolean }> {
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        idea: {
          ConditionCheck: {
            TableName: tableName,
            Key: ideaKey(workspace, comment.ideaId),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(mergedInto)',
          },
        },
        comment: {
          Put: {
            TableName: tableName,
            Item: commentItem(workspace, comment, write, options.keyId),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        counter: counterAdd(commentCounterEntity.keys.counter(workspace, comment.ideaId), comment.visibility, 1, {
          entity: commentCounterEntity.name,
        }),
      },
      comment,
      options.idempotency,
    );
    return { comment: response, replayed };
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('idea')) {
      const idea = error.current('idea');
      throw idea ? ideaMerged(String(idea.mergedInto)) : ideaNotFound();
    }
    throw error;
  }
}

/** A comment written on the idea (consistent, public attributes only), or null. */
export async function findComment(workspace: string, ideaId: string, commentId: string): Promise<Comment | null> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: commentEntity.keys.comment(workspace, ideaId, commentId),
      ConsistentRead: true,
      ...publicProjection,
    }),
  );
  return Item ? toComment(Item) : null;
}

export interface CommentPage {
  comments: Comment[];
  total: number;
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

function commentRange(workspace: string, ideaId: string, visibility: CommentVisibility | undefined, after: string | undefined) {
  const { from, to } = commentEntity.keys.range(ideaId);
  const values: Record<string, unknown> = {
    ':pk': keys.workspacePk(workspace),
    ':from': from,
    ':to': after === undefined ? to : `${from}${after}`,
  };
  if (visibility) values[':visibility'] = visibility;
  const query: Omit<QueryCommandInput, 'Limit' | 'ExclusiveStartKey'> = {
    TableName: tableName,
    // From a cursor, the range ends at the last comment shown (BETWEEN is inclusive: the merge drops it).
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: values,
    ExpressionAttributeNames: { ...publicProjection.ExpressionAttributeNames, ...(visibility ? { '#visibility': 'visibility' } : {}) },
    ProjectionExpression: `sk, ${publicProjection.ProjectionExpression}`,
    ...(visibility ? { FilterExpression: '#visibility = :visibility' } : {}),
    ScanIndexForward: false,
    ConsistentRead: true,
  };
  return query;
}

const totalOf = (counters: (Item | undefined)[], visibility: CommentVisibility | undefined) =>
  counters.reduce<number>((sum, counter) => {
    const count = (name: CommentVisibility) => Math.max(0, (counter?.[name] as number | undefined) ?? 0);
    return sum + (visibility ? count(visibility) : count('public') + count('internal'));
  }, 0);

/**
 * One page of the comments of the idea and of the ideas merged into it, newest first, and their total.
 * `mergedFromOf` reads the idea's merge sources (null when there is no such idea), beside the first Query.
 */
export async function listIdeaComments(
  workspace: string,
  ideaId: string,
  visibility: CommentVisibility | undefined,
  { limit, offset, after }: PageStart,
  mergedFromOf: () => Promise<string[] | null>,
): Promise<CommentPage> {
  const position = typeof after?.commentId === 'string' ? after.commentId : undefined;
  const skip = position === undefined ? offset : 0;
  const wanted = skip + limit + 1;
  const read = (ideas: string[]) =>
    readMerged(
      {
        ranges: ideas.map((id) => commentRange(workspace, id, visibility, position)),
        orderOf: (item) => commentEntity.keys.idOf(item.sk as string),
        descending: true,
        after: position,
      },
      wanted,
      wanted,
    );
  const counterOf = (ids: string[]) => getMany(ids.map((id) => commentCounterEntity.keys.counter(workspace, id)));
  const [sources, own, ownCounter] = await Promise.all([mergedFromOf(), read([ideaId]), counterOf([ideaId])]);
  if (sources === null) throw ideaNotFound();
  let items = own.items;
  let counters = ownCounter;
  if (sources.length > 0) {
    const [merged, sourceCounters] = await Promise.all([read([ideaId, ...sources]), counterOf(sources)]);
    items = merged.items;
    counters = [...ownCounter, ...sourceCounters];
  }
  const shown = items.slice(skip, skip + limit);
  const last = shown.at(-1);
  return {
    comments: shown.map(toComment),
    total: totalOf(counters, visibility),
    hasMore: items.length > skip + limit,
    lastKey: last ? { commentId: last.id as string } : undefined,
    returned: shown.length,
  };
}

/**
 * Change a comment's text (one conditional UpdateItem) or its visibility too (the comment read first,
 * then one transaction that also moves it between the counter's counts).
 */
export async function updateIdeaComment(
  workspace: string,
  ideaId: string,
  commentId: string,
  patch: CommentPatch,
  precondition: VersionPrecondition,
): Promise<Comment> {
  const key = commentEntity.keys.comment(workspace, ideaId, commentId);
  const now = new Date().toISOString();
  const changed = update().increment('version').set('updatedAt', now).patch(patch, ['body', 'bodyAr', 'visibility']);
  if (patch.visibility === undefined) {
    const version = versionCondition(precondition);
    const outcome = await updateItem({
      TableName: tableName,
      Key: key,
      ...changed.build({ expression: `attribute_exists(pk)${version.expression}`, names: version.names, values: version.values }),
    });
    if (outcome.written) return toComment(outcome.written);
    throw outcome.refused.current ? new VersionConflictError(Number(outcome.refused.current.version)) : commentNotFound();
  }
  const current = await findComment(workspace, ideaId, commentId);
  if (!current) throw commentNotFound();
  if (precondition && !precondition.anyVersion && !precondition.versions.includes(current.version)) {
    throw new VersionConflictError(current.version);
  }
  const counter = commentCounterEntity.keys.counter(workspace, ideaId);
  try {
    await transact({
      comment: {
        Update: {
          TableName: tableName,
          Key: key,
          ...changed.build({ expression: 'version = :read', values: { ':read': current.version } }),
        },
      },
      // One Update of the counter (a transaction takes one operation per item): the comment moves between its counts.
      counter: patch.visibility !== current.visibility && {
        Update: { TableName: tableName, Key: counter, ...update().add(current.visibility, -1).add(patch.visibility, 1).build() },
      },
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('comment')) {
      const seen = error.current('comment');
      throw seen ? new VersionConflictError(Number(seen.version)) : commentNotFound();
    }
    throw error;
  }
  const { body, bodyAr, visibility } = patch;
  return {
    ...current,
    ...(body === undefined ? {} : { body }),
    ...(bodyAr === undefined ? {} : { bodyAr }),
    visibility,
    version: current.version + 1,
    updatedAt: now,
  };
}

/** Delete a comment (at the If-Match version) and uncount it. */
export async function deleteIdeaComment(
  workspace: string,
  ideaId: string,
  commentId: string,
  precondition: VersionPrecondition,
): Promise<void> {
  const current = await findComment(workspace, ideaId, commentId);
  if (!current) throw commentNotFound();
  if (precondition && !precondition.anyVersion && !precondition.versions.includes(current.version)) {
    throw new VersionConflictError(current.version);
  }
  try {
    await transact({
      comment: {
        Delete: {
          TableName: tableName,
          Key: commentEntity.keys.comment(workspace, ideaId, commentId),
          ConditionExpression: 'version = :read',
          ExpressionAttributeValues: { ':read': current.version },
        },
      },
      counter: counterAdd(commentCounterEntity.keys.counter(workspace, ideaId), current.visibility, -1),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('comment')) {
      const seen = error.current('comment');
      throw seen ? new VersionConflictError(Number(seen.version)) : commentNotFound();
    }
    throw error;
  }
}
