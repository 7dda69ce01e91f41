/**
 * Access patterns of ideas. Every call stays inside the workspace's partition (entities.ts), so an
 * id of another workspace is simply not found. Each operation is one round trip:
 *   create  TransactWrite: idea + counter (+ idempotency record)
 *   get     GetItem (consistent, public attributes only)
 *   list    Query: the counter and the page, newest first, in one descending range
 *   update  UpdateItem, conditional on existence and the If-Match version; no read first
 *   delete  TransactWrite: idea (conditional) + counter
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells
 * 404 from 409 without another read.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { ifMatchCondition, type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce } from '../../platform/data/idempotency.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { type CountedList, counted, walkCountedList } from '../../platform/data/list-walk.ts';
import { projection, projectionWith } from '../../platform/data/projection.ts';
import { counterAdd, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { ideaCounterEntity, ideaEntity, PUBLIC_IDEA_ATTRIBUTES } from '../entities.ts';
import { ideaConditionFailure } from '../errors.ts';
import {
  EDITABLE_IDEA_FIELDS,
  type EditableIdeaField,
  newIdeaId,
  type StoredSubmitter,
  storedFields,
  submitterHashOf,
  toIdea,
  writtenFields,
} from '../record.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';

const { idea: ideaKey, list: ideaList } = ideaEntity.keys;
const counterKey = ideaCounterEntity.keys.counter;

/** The operation an Idempotency-Key of `POST /ideas` is remembered under. */
const IDEA_CREATE_SCOPE = 'POST /ideas';

const publicProjection = projection(PUBLIC_IDEA_ATTRIBUTES);

export interface CreateIdeaOptions {
  /** The Developer key that creates it (kept for the audit trail). */
  keyId: string;
  /** Remember the response under this key; `fingerprint` identifies the request body. */
  idempotency?: { key: string; fingerprint: string };
}

/**
 * Create an idea (private, pending moderation, version 1) and count it, atomically. With an
 * idempotency key the response is remembered in the same transaction (lib/platform/data/idempotency.ts):
 * a retry with the same body gets it back (`replayed`), a different body is a 409 `idempotency_key_reused`.
 */
export async function createIdea(
  workspace: string,
  write: IdeaWrite,
  options: CreateIdeaOptions,
): Promise<{ idea: Idea; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const id = newIdeaId(nowMs);
  const idea: Idea = {
    id,
    ...writtenFields(write),
    moderationStatus: 'pending',
    visibility: 'private',
    priority: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  const item = {
    ...ideaKey(workspace, id),
    entity: ideaEntity.name,
    workspace,
    id,
    ...storedFields(idea),
    moderationStatus: idea.moderationStatus,
    visibility: idea.visibility,
    version: idea.version,
    createdAt: now,
    updatedAt: now,
    submitter: write.submitter,
    submitterHash: submitterHashOf(workspace, write.submitter),
    // A JSON string, not a map: any JSON object stores as given (empty keys, deep nesting).
    customerContext: write.customerContext && JSON.stringify(write.customerContext),
    createdByKeyId: options.keyId,
    updatedByKeyId: options.keyId,
  };

  const { idempotency } = options;
  const { response, replayed } = await createOnce(
    workspace,
    {
      idea: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      // Transactions that touch the workspace's idea counter can collide; `transact` retries those.
      counter: counterAdd(counterKey(workspace), 'ideaCount', 1, { entity: ideaCounterEntity.name }),
    },
    idea,
    idempotency && { ...idempotency, scope: IDEA_CREATE_SCOPE },
  );
  return { idea: response, replayed };
}

/** Read one idea (strongly consistent; public attributes only), or null. */
export async function findIdea(workspace: string, id: string): Promise<Idea | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: ideaKey(workspace, id), ConsistentRead: true, ...publicProjection }),
  );
  return Item ? toIdea(Item) : null;
}

export interface IdeaPage {
  ideas: Idea[];
  total: number;
  hasMore: boolean;
  /** The key of the page's last idea, where a cursor continues (lib/platform/pagination.ts). */
  lastKey: PageKey | undefined;
  returned: number;
}

/**
 * One page of ideas, newest first, and the total: the counted list walk (lib/platform/data/list-walk.ts)
 * over the descending range that holds the ideas and, first, their counter. From a cursor the walk
 * reads only the page and the counter beside it; by offset it reads the ideas before the offset,
 * never past the workspace's ideas.
 */
export async function listIdeas(workspace: string, page: PageStart): Promise<IdeaPage> {
  const { items, ...rest } = await walkCountedList(ideaRange(workspace), page);
  return { ideas: items.map(toIdea), ...rest };
}

/** The descending range of a workspace's ideas (and their counter), public attributes only. */
function ideaRange(workspace: string): CountedList {
  const counter = counterKey(workspace);
  return {
    query: {
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':from': ideaList.from, ':to': ideaList.to },
      ...projectionWith(PUBLIC_IDEA_ATTRIBUTES, ['sk', 'ideaCount']),
      ScanIndexForward: false,
      ConsistentRead: true,
    },
    isCounter: (item) => item.sk === counter.sk,
    totalOf: ([counter]) => Math.max(0, (counter?.ideaCount as number | undefined) ?? 0),
    readCounters: async () =>
      counted(
        (await dynamo.send(new GetCommand({ TableName: tableName, Key: counter, ConsistentRead: true, ProjectionExpression: 'ideaCount' })))
          .Item,
      ),
    cursorInRange: (after: PageKey) =>
      after.pk === workspacePk(workspace) && typeof after.sk === 'string' && after.sk.startsWith(ideaList.from),
    keyOf: (item) => ({ pk: workspacePk(workspace), sk: item.sk as string }),
  };
}

export interface IdeaChanges {
  /** Editable fields to write; `null` removes one. Fields not named are left as they are. */
  fields: Partial<Record<EditableIdeaField, string | null>>;
  /** When given, replaces the stored submitter (and its hash). */
  submitter?: StoredSubmitter;
  customerContext?: Record<string, unknown>;
}

/**
 * Apply `changes` in one conditional UpdateItem (no read first): the idea must exist and, with
 * If-Match, be at one of the named versions. Bumps the version. Returns the idea as now stored.
 */
export async function updateIdea(
  workspace: string,
  id: string,
  changes: IdeaChanges,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  // Only allow-listed names reach the expression, whatever keys the change object carries.
  const changed = update()
    .increment('version')
    .set('updatedAt', new Date().toISOString())
    .set('updatedByKeyId', keyId)
    .patch(changes.fields, EDITABLE_IDEA_FIELDS);
  if (changes.submitter) {
    const hash = submitterHashOf(workspace, changes.submitter);
    changed.set('submitter', changes.submitter);
    if (hash) changed.set('submitterHash', hash);
    else changed.remove('submitterHash');
  }
  if (changes.customerContext) changed.set('customerContext', JSON.stringify(changes.customerContext));

  const version = versionCondition(precondition);
  const { written, refused } = await updateItem({
    TableName: tableName,
    Key: ideaKey(workspace, id),
    ...changed.build({ expression: `attribute_exists(pk)${version.expression}`, names: version.names, values: version.values }),
  });
  if (!written) throw ideaConditionFailure(refused.current);
  return toIdea(written);
}

/** Delete an idea (existing and, with If-Match, at a named version) and uncount it, atomically. */
export async function deleteIdea(workspace: string, id: string, precondition: VersionPrecondition): Promise<void> {
  try {
    await transact({
      idea: {
        Delete: {
          TableName: tableName,
          Key: ideaKey(workspace, id),
          ...ifMatchCondition('attribute_exists(pk)', precondition),
        },
      },
      counter: counterAdd(counterKey(workspace), 'ideaCount', -1),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('idea')) throw ideaConditionFailure(error.current('idea') ?? undefined);
    throw error;
  }
}
