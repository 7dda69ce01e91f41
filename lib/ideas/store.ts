/**
 * Access patterns of ideas. Every call stays inside the workspace's partition (keys.idea), so an
 * id of another workspace is simply not found. Each operation is one round trip:
 *   create  TransactWrite: idea + counter (+ idempotency record)
 *   get     GetItem (consistent, public attributes only)
 *   list    Query: the counter and the page, newest first, in one descending range
 *   update  UpdateItem, conditional on existence and the If-Match version; no read first
 *   delete  TransactWrite: idea (conditional) + counter
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells
 * 404 from 409 without another read.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/data/client.ts';
import {
  isConditionFailure,
  retryTransactionConflicts,
  transactionCancellationReasons,
  type VersionPrecondition,
  versionCondition,
} from '../platform/data/conditions.ts';
import { transactCreate } from '../platform/data/idempotency.ts';
import { keys } from '../platform/data/keys.ts';
import { NotFoundError, VersionConflictError } from '../platform/errors.ts';
import type { PageKey, PageStart } from '../platform/pagination.ts';
import {
  EDITABLE_IDEA_FIELDS,
  type EditableIdeaField,
  IDEA_ENTITY,
  newIdeaId,
  PUBLIC_IDEA_ATTRIBUTES,
  type StoredSubmitter,
  submitterHashOf,
  toIdea,
} from './record.ts';
import type { Idea, IdeaWrite } from './schemas.ts';

/** The operation an Idempotency-Key of `POST /ideas` is remembered under. */
const IDEA_CREATE_SCOPE = 'POST /ideas';
/** Items asked of one Query page while skipping to an offset (a page also stops at 1 MB). */
const MAX_ITEMS_PER_QUERY = 1000;
/** Transactions that touch the same counter can collide; they are tried this often, with jitter. */
const TRANSACTION_ATTEMPTS = 6;

const publicProjection = {
  ProjectionExpression: PUBLIC_IDEA_ATTRIBUTES.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(PUBLIC_IDEA_ATTRIBUTES.map((name, i) => [`#p${i}`, name])),
};

/** The one answer for an id this workspace has no idea under, whether it never existed or is another's. */
export function ideaNotFound(): NotFoundError {
  return new NotFoundError('not_found', 'No idea with this id in this workspace');
}

/** The current item a failed condition returned (raw attribute values): 404 when gone, else 409. */
function conditionFailure(current: Record<string, AttributeValue> | undefined): Error {
  const version = current?.version?.N;
  return version === undefined ? ideaNotFound() : new VersionConflictError(Number(version));
}

/** Transactions that touch the workspace's idea counter can collide; those are retried. */
async function transactWrite(input: TransactWriteCommandInput): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand(input)), TRANSACTION_ATTEMPTS);
}

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
export async function createIdea(slug: string, write: IdeaWrite, options: CreateIdeaOptions): Promise<{ idea: Idea; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const id = newIdeaId(nowMs);
  const idea: Idea = {
    id,
    title: write.title,
    titleAr: write.titleAr ?? null,
    description: write.description ?? null,
    status: write.status ?? null,
    module: write.module ?? null,
    moderationStatus: 'pending',
    visibility: 'private',
    priority: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  // An unset optional field is no attribute at all (undefined is dropped on write), never a NULL.
  const item = {
    ...keys.idea(slug, id),
    entity: IDEA_ENTITY,
    workspace: slug,
    id,
    title: idea.title,
    titleAr: idea.titleAr ?? undefined,
    description: idea.description ?? undefined,
    status: idea.status ?? undefined,
    module: idea.module ?? undefined,
    moderationStatus: idea.moderationStatus,
    visibility: idea.visibility,
    version: idea.version,
    createdAt: now,
    updatedAt: now,
    submitter: write.submitter,
    submitterHash: submitterHashOf(slug, write.submitter),
    // A JSON string, not a map: any JSON object stores as given (empty keys, deep nesting).
    customerContext: write.customerContext && JSON.stringify(write.customerContext),
    createdByKeyId: options.keyId,
    updatedByKeyId: options.keyId,
  };

  const writes: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        TableName: tableName,
        Key: keys.ideaCounter(slug),
        UpdateExpression: 'SET entity = :entity ADD ideaCount :one',
        ExpressionAttributeValues: { ':entity': 'IdeaCounter', ':one': 1 },
      },
    },
  ];
  const { idempotency } = options;
  const { response, replayed } = await transactCreate(
    slug,
    writes,
    idea,
    idempotency && { ...idempotency, scope: IDEA_CREATE_SCOPE },
    TRANSACTION_ATTEMPTS,
  );
  return { idea: response, replayed };
}

/** Read one idea (strongly consistent; public attributes only), or null. */
export async function getIdea(slug: string, id: string): Promise<Idea | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.idea(slug, id), ConsistentRead: true, ...publicProjection }),
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
 * One page of ideas, newest first, and the total.
 *
 * From a cursor (`after`, the key of the previous page's last idea) the Query starts right there and
 * reads only the page, while the counter is read beside it (one round trip of latency).
 *
 * By offset, DynamoDB cannot skip, so reaching `offset` reads the `offset` ideas before it: the cost
 * grows with the offset but never beyond the workspace's ideas, and once the counter (the first item
 * of the range) shows the offset is past the end, nothing more is read.
 */
export async function listIdeas(slug: string, { limit, offset, after }: PageStart): Promise<IdeaPage> {
  if (after) return listIdeasAfter(slug, limit, after);
  // One idea beyond the page tells whether more follow, whatever the counter says.
  const wanted = offset + limit + 1;
  let total: number | undefined;
  let skipped = 0;
  const page: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const counterStillAhead = total === undefined ? 1 : 0;
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        ...listQuery(slug),
        Limit: Math.min(wanted - skipped - page.length + counterStillAhead, MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (item.sk === keys.ideaCounter(slug).sk) total = Math.max(0, item.ideaCount as number);
      else if (skipped < offset) skipped++;
      else if (page.length < limit + 1) page.push(item);
    }
    // In descending order the counter comes first: not on the first page means no idea was ever made.
    total ??= 0;
    cursor = LastEvaluatedKey;
    if (offset >= total) break;
  } while (cursor && skipped + page.length < wanted);

  return pageOf(slug, page, limit, total);
}

/** The descending range of a workspace's ideas (and their counter), public attributes only. */
function listQuery(slug: string) {
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':from': keys.ideaListRange.from, ':to': keys.ideaListRange.to },
    ProjectionExpression: `sk, ideaCount, ${publicProjection.ProjectionExpression}`,
    ExpressionAttributeNames: publicProjection.ExpressionAttributeNames,
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** The page after a cursor's idea: `limit + 1` ideas (the extra one tells whether more follow), and the counter. */
async function listIdeasAfter(slug: string, limit: number, after: PageKey): Promise<IdeaPage> {
  // The cursor is signed for this workspace, but a key outside its idea range is still refused
  // rather than handed to DynamoDB.
  if (after.pk !== keys.workspacePk(slug) || typeof after.sk !== 'string' || !after.sk.startsWith(keys.ideaListRange.from)) {
    throw new Error("A cursor for ideas named a key outside the workspace's ideas");
  }
  const [{ Items = [] }, counter] = await Promise.all([
    dynamo.send(new QueryCommand({ ...listQuery(slug), Limit: limit + 1, ExclusiveStartKey: after })),
    dynamo.send(
      new GetCommand({ TableName: tableName, Key: keys.ideaCounter(slug), ConsistentRead: true, ProjectionExpression: 'ideaCount' }),
    ),
  ]);
  return pageOf(slug, Items, limit, Math.max(0, (counter.Item?.ideaCount as number | undefined) ?? 0));
}

function pageOf(slug: string, items: Record<string, unknown>[], limit: number, total: number): IdeaPage {
  const shown = items.slice(0, limit);
  const last = shown.at(-1);
  return {
    ideas: shown.map(toIdea),
    total,
    hasMore: items.length > limit,
    lastKey: last ? { pk: keys.workspacePk(slug), sk: last.sk as string } : undefined,
    returned: shown.length,
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
  slug: string,
  id: string,
  changes: IdeaChanges,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  const names: Record<string, string> = { '#version': 'version', '#updatedAt': 'updatedAt', '#updatedBy': 'updatedByKeyId' };
  const values: Record<string, unknown> = { ':one': 1, ':now': new Date().toISOString(), ':keyId': keyId };
  const set = ['#version = #version + :one', '#updatedAt = :now', '#updatedBy = :keyId'];
  const remove: string[] = [];

  // Only allow-listed names reach the expression, whatever keys the change object carries.
  for (const field of EDITABLE_IDEA_FIELDS) {
    const value = changes.fields[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) {
      remove.push(`#${field}`);
    } else {
      values[`:${field}`] = value;
      set.push(`#${field} = :${field}`);
    }
  }
  if (changes.submitter) {
    const hash = submitterHashOf(slug, changes.submitter);
    values[':submitter'] = changes.submitter;
    set.push('submitter = :submitter');
    if (hash) {
      values[':submitterHash'] = hash;
      set.push('submitterHash = :submitterHash');
    } else {
      remove.push('submitterHash');
    }
  }
  if (changes.customerContext) {
    values[':customerContext'] = JSON.stringify(changes.customerContext);
    set.push('customerContext = :customerContext');
  }

  const version = versionCondition(precondition);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.idea(slug, id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk)${version.expression}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...version.values },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toIdea(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) throw conditionFailure(error.Item as Record<string, AttributeValue> | undefined);
    throw error;
  }
}

/** Delete an idea (existing and, with If-Match, at a named version) and uncount it, atomically. */
export async function deleteIdea(slug: string, id: string, precondition: VersionPrecondition): Promise<void> {
  const version = versionCondition(precondition);
  try {
    await transactWrite({
      TransactItems: [
        {
          Delete: {
            TableName: tableName,
            Key: keys.idea(slug, id),
            ConditionExpression: `attribute_exists(pk)${version.expression}`,
            ...(version.expression
              ? { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: version.values }
              : {}),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.ideaCounter(slug),
            UpdateExpression: 'ADD ideaCount :minusOne',
            ExpressionAttributeValues: { ':minusOne': -1 },
          },
        },
      ],
    });
  } catch (error) {
    if (transactionCancellationReasons(error)?.[0] === 'ConditionalCheckFailed') {
      const reason = (error as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] }).CancellationReasons?.[0];
      throw conditionFailure(reason?.Item);
    }
    throw error;
  }
}
