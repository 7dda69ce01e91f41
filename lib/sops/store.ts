/**
 * Access patterns of SOPs, their review comments and their department serial counters.
 * Every state change is one conditional write (an UpdateItem or one transaction) whose condition
 * names the state it starts from, so racing requests cannot both succeed; a failed condition comes
 * back with the item as it is (ReturnValuesOnConditionCheckFailure), which tells "no such SOP" (404)
 * from "wrong state" (400) without a second read.
 */
import { randomUUID } from 'node:crypto';
import type { AttributeValue, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/data/client.ts';
import {
  conflictBackoff,
  isConditionFailure,
  isTransactionConflict,
  retryTransactionConflicts,
  transactionCancellationReasons,
} from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';
import { queryAll } from '../platform/data/query-all.ts';
import { TABLE } from '../platform/data/table.ts';
import { BadRequestError, NotFoundError } from '../platform/errors.ts';
import { CONTENT_FIELDS, type Sop, type SopComment, type SopContent, storedSteps, toSop, toSopComment } from './record.ts';
import type { SopStatus } from './schemas.ts';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
type RawItem = Record<string, AttributeValue>;

/** Attempts before a contended serial counter or a conflicting transaction gives up (then 502). */
const MAX_ATTEMPTS = 25;

const notFound = () => new NotFoundError('not_found', 'No SOP with this id exists in this workspace');

/** A string attribute of an item returned in DynamoDB's raw shape (condition-failure items are not unmarshalled). */
function rawString(item: RawItem | undefined, name: string): string | undefined {
  return item?.[name]?.S;
}

/** SOP writes contend on department serial counters; they get more tries than the default. */
const retryingConflicts = <T>(write: () => Promise<T>) => retryTransactionConflicts(write, MAX_ATTEMPTS);

function failedItem(error: unknown, index: number): RawItem | undefined {
  return (error as TransactionCanceledException).CancellationReasons?.[index]?.Item as RawItem | undefined;
}

function byCreation(a: Sop, b: Sop): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Reads

/** Every SOP of a workspace, or only the published ones, oldest first; gsi1 holds no comments. */
export async function listSops(workspace: string, options: { publishedOnly: boolean }): Promise<Sop[]> {
  const items = await queryAll({
    TableName: tableName,
    IndexName: TABLE.gsi1.name,
    KeyConditionExpression: options.publishedOnly ? 'gsi1pk = :pk AND begins_with(gsi1sk, :status)' : 'gsi1pk = :pk',
    ExpressionAttributeValues: {
      ':pk': keys.sopListingPk(workspace),
      ...(options.publishedOnly ? { ':status': keys.sopListingStatusPrefix('published') } : {}),
    },
  });
  return items.map(toSop).sort(byCreation);
}

/** One SOP without its comments (what a read-only key may see), strongly consistent. */
export async function findSop(workspace: string, id: string): Promise<Sop | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.sop(workspace, id), ConsistentRead: true }));
  return Item ? toSop(Item) : null;
}

/** One SOP and its review comments, oldest first, in one Query of its item collection. */
export async function findSopWithComments(workspace: string, id: string): Promise<{ sop: Sop; comments: SopComment[] } | null> {
  const sopKey = keys.sop(workspace, id);
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :sop AND :end',
    ExpressionAttributeValues: { ':pk': sopKey.pk, ':sop': sopKey.sk, ':end': keys.sopCollectionEnd(id) },
    ConsistentRead: true,
  });
  const sopItem = items.find((item) => item.sk === sopKey.sk);
  if (!sopItem) return null;
  return { sop: toSop(sopItem), comments: items.filter((item) => item !== sopItem).map(toSopComment) };
}

// ---------------------------------------------------------------------------------------------
// Department serials

/** The last serial handed out in a department (0 before the first), strongly consistent. */
async function readLastSerial(workspace: string, departmentId: string | null): Promise<number> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: keys.sopSerialCounter(workspace, departmentId),
      ProjectionExpression: 'lastSerial',
      ConsistentRead: true,
    }),
  );
  return (Item?.lastSerial as number | undefined) ?? 0;
}

/**
 * Claims the next serial of a department inside the caller's transaction. `commit` gets the serial
 * and the counter update, which it must put FIRST in its TransactItems. The update holds only if no
 * one claimed a serial since the counter was read, so concurrent writers never share a serial, and
 * a transaction that fails claims nothing (no gap). On contention: re-read, back off, try again.
 */
async function withNextSerial(
  workspace: string,
  departmentId: string | null,
  firstRead: Promise<number>,
  commit: (serial: number, claim: TransactItem) => Promise<void>,
): Promise<number> {
  let last = await firstRead;
  for (let attempt = 1; ; attempt++) {
    const serial = last + 1;
    const claim: TransactItem = {
      Update: {
        TableName: tableName,
        Key: keys.sopSerialCounter(workspace, departmentId),
        UpdateExpression: 'SET lastSerial = :serial, entity = :entity',
        ConditionExpression: last === 0 ? 'attribute_not_exists(pk)' : 'lastSerial = :last',
        ExpressionAttributeValues: { ':serial': serial, ':entity': 'SopSerialCounter', ...(last === 0 ? {} : { ':last': last }) },
      },
    };
    try {
      await commit(serial, claim);
      return serial;
    } catch (error) {
      const reasons = transactionCancellationReasons(error);
      const contended = reasons !== null && (reasons[0] === 'ConditionalCheckFailed' || reasons.includes('TransactionConflict'));
      if (!contended) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new Error(`The SOP serial counter of ${workspace}/${departmentId ?? '-'} stayed contended for ${attempt} attempts`);
      }
    }
    await conflictBackoff(attempt);
    last = await readLastSerial(workspace, departmentId);
  }
}

// ---------------------------------------------------------------------------------------------
// Writes

/**
 * The update of a PUT: the content becomes exactly `content` (null fields removed), the SOP a draft
 * with its review and publication stamps cleared, on condition that it exists and is not under
 * review (plus `condition`, e.g. its department). `extra` sets further attributes (a new serial).
 */
function replacement(
  workspace: string,
  id: string,
  content: SopContent,
  now: string,
  condition: { expression: string; values: Record<string, unknown> },
  extra: Record<string, unknown> = {},
) {
  const set = ['#status = :draft', 'updatedAt = :now', 'gsi1sk = :listing'];
  const remove = ['submittedAt', 'publishedAt', 'approvedBy'];
  const names: Record<string, string> = { '#status': 'status' };
  const values: Record<string, unknown> = {
    ':draft': 'draft',
    ':underReview': 'under_review',
    ':now': now,
    ':listing': keys.sopListing(workspace, 'draft', id).gsi1sk,
    ...condition.values,
  };
  for (const field of CONTENT_FIELDS) {
    names[`#${field}`] = field;
    const value = field === 'steps' ? storedSteps(content.steps) : content[field];
    if (value === null) {
      remove.push(`#${field}`);
    } else {
      set.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  for (const [name, value] of Object.entries(extra)) {
    set.push(`${name} = :${name}`);
    values[`:${name}`] = value;
  }
  return {
    TableName: tableName,
    Key: keys.sop(workspace, id),
    UpdateExpression: `SET ${set.join(', ')} REMOVE ${remove.join(', ')}`,
    ConditionExpression: `attribute_exists(pk) AND #status <> :underReview AND ${condition.expression}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** `departmentId` is the given department, or absent for none. */
function departmentIs(departmentId: string | null, placeholder: string): { expression: string; values: Record<string, unknown> } {
  return departmentId === null
    ? { expression: 'attribute_not_exists(#departmentId)', values: {} }
    : { expression: `#departmentId = ${placeholder}`, values: { [placeholder]: departmentId } };
}

/**
 * Create a draft SOP with its department's next serial, in one transaction with the counter.
 * The counter is read while `precondition` (the caller's validation) runs; nothing is written
 * unless it passes.
 */
export async function createSop(workspace: string, content: SopContent, precondition: Promise<void>): Promise<Sop> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const firstRead = Promise.all([precondition, readLastSerial(workspace, content.departmentId)]).then(([, last]) => last);
  let item: Record<string, unknown> = {};
  await withNextSerial(workspace, content.departmentId, firstRead, async (serial, claim) => {
    item = {
      ...keys.sop(workspace, id),
      ...keys.sopListing(workspace, 'draft', id),
      entity: 'Sop',
      id,
      serial,
      status: 'draft',
      ...content,
      steps: storedSteps(content.steps),
      commentCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    // Unset optional fields are left out of the item rather than stored as NULL.
    for (const [name, value] of Object.entries(item)) if (value === null) delete item[name];
    await dynamo.send(
      new TransactWriteCommand({
        TransactItems: [claim, { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }],
      }),
    );
  });
  return toSop(item);
}

const editRejected = () => new BadRequestError('invalid_state', 'An SOP under review cannot be edited; approve it or send it back first');

/**
 * Replace an SOP's content (PUT): from draft or published, back to draft, with the review and
 * publication stamps cleared. Under review → 400 invalid_state, nothing changed. When the
 * department changes, the SOP takes the next serial of its new department (see moveSop).
 */
export async function replaceSop(workspace: string, id: string, content: SopContent): Promise<Sop> {
  for (let round = 1; ; round++) {
    const now = new Date().toISOString();
    const sameDepartment = departmentIs(content.departmentId, ':department');
    try {
      const { Attributes } = await retryingConflicts(() =>
        dynamo.send(
          new UpdateCommand({
            ...replacement(workspace, id, content, now, sameDepartment),
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return toSop(Attributes!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = error.Item;
      if (!current) throw notFound();
      if (rawString(current, 'status') === 'under_review') throw editRejected();
      const moved = await moveSop(workspace, id, content, current, now);
      if (moved) return moved;
      // The SOP changed between the two writes; look again unless that keeps happening.
      if (round >= MAX_ATTEMPTS) throw new Error(`SOP ${workspace}/${id} kept changing during a department move`);
    }
  }
}

/**
 * PUT with a new department: one transaction replaces the content, gives the SOP the next serial
 * of the new department and claims it on that department's counter, on condition that the SOP is
 * still in its old department and not under review. The old serial is never handed out again (its
 * counter only grows). Returns null when that condition failed, so the caller can look again.
 */
async function moveSop(workspace: string, id: string, content: SopContent, current: RawItem, now: string): Promise<Sop | null> {
  const oldDepartment = departmentIs(rawString(current, 'departmentId') ?? null, ':oldDepartment');
  const createdAt = rawString(current, 'createdAt')!;
  let sopConditionFailed = false;
  const serial = await withNextSerial(
    workspace,
    content.departmentId,
    readLastSerial(workspace, content.departmentId),
    async (serial, claim) => {
      try {
        await dynamo.send(
          new TransactWriteCommand({
            TransactItems: [claim, { Update: replacement(workspace, id, content, now, oldDepartment, { serial }) }],
          }),
        );
      } catch (error) {
        const reasons = transactionCancellationReasons(error);
        // Only the SOP's condition failed: not a counter race, so do not spend a retry on the counter.
        if (reasons && reasons[0] === 'None' && reasons[1] === 'ConditionalCheckFailed') {
          sopConditionFailed = true;
          return;
        }
        throw error;
      }
    },
  );
  if (sopConditionFailed) return null;
  return toSop({ id, serial, status: 'draft', ...content, createdAt, updatedAt: now });
}

/** One workflow step: a single UpdateItem conditioned on the state it starts from. */
async function transition(
  workspace: string,
  id: string,
  step: {
    from: SopStatus;
    to: SopStatus;
    /** Further attributes to set, from the transition's timestamp (one instant for the whole write). */
    set?: (now: string) => Record<string, unknown>;
    remove?: string[];
    rejected: (status: string) => string;
  },
): Promise<Sop> {
  const now = new Date().toISOString();
  const extra = step.set?.(now) ?? {};
  const set = Object.keys(extra);
  try {
    const { Attributes } = await retryingConflicts(() =>
      dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.sop(workspace, id),
          UpdateExpression:
            `SET ${['#status = :to', 'updatedAt = :now', 'gsi1sk = :listing', ...set.map((name) => `${name} = :${name}`)].join(', ')}` +
            (step.remove?.length ? ` REMOVE ${step.remove.join(', ')}` : ''),
          // On a missing item `#status = :from` is false too; the absent Item tells the two apart.
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':from': step.from,
            ':to': step.to,
            ':now': now,
            ':listing': keys.sopListing(workspace, step.to, id).gsi1sk,
            ...Object.fromEntries(set.map((name) => [`:${name}`, extra[name]])),
          },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return toSop(Attributes!);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (!error.Item) throw notFound();
    throw new BadRequestError('invalid_state', step.rejected(rawString(error.Item, 'status') ?? 'unknown'));
  }
}

/** draft → under_review. */
export function submitSop(workspace: string, id: string): Promise<Sop> {
  return transition(workspace, id, {
    from: 'draft',
    to: 'under_review',
    set: (now) => ({ submittedAt: now }),
    rejected: (status) => `Only a draft can be submitted for review; this SOP is ${status}`,
  });
}

/** under_review → published, recording which key approved it. */
export function approveSop(workspace: string, id: string, approverKeyId: string): Promise<Sop> {
  return transition(workspace, id, {
    from: 'under_review',
    to: 'published',
    set: (now) => ({ publishedAt: now, approvedBy: approverKeyId }),
    rejected: (status) => `Only an SOP under review can be approved; this SOP is ${status}`,
  });
}

/**
 * under_review → draft with the feedback kept as a review comment: the status change and the
 * comment are one transaction. The SOP is read first so the response is exactly what was written:
 * while under review nothing but this transition, approval or deletion can change it, and those all
 * fail the transaction's condition.
 */
export async function sendBackSop(workspace: string, id: string, feedback: string, reviewerKeyId: string): Promise<Sop> {
  const rejected = (status: string) =>
    new BadRequestError('invalid_state', `Only an SOP under review can be sent back; this SOP is ${status}`);
  for (let attempt = 1; ; attempt++) {
    const current = await findSop(workspace, id);
    if (!current) throw notFound();
    if (current.status !== 'under_review') throw rejected(current.status);
    const now = new Date().toISOString();
    const commentId = randomUUID();
    try {
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: keys.sop(workspace, id),
                UpdateExpression: 'SET #status = :draft, updatedAt = :now, gsi1sk = :listing ADD commentCount :one REMOVE submittedAt',
                ConditionExpression: '#status = :underReview',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: {
                  ':draft': 'draft',
                  ':underReview': 'under_review',
                  ':now': now,
                  ':one': 1,
                  ':listing': keys.sopListing(workspace, 'draft', id).gsi1sk,
                },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            {
              Put: {
                TableName: tableName,
                Item: {
                  ...keys.sopComment(workspace, id, now, commentId),
                  entity: 'SopComment',
                  id: commentId,
                  sopId: id,
                  kind: 'send_back',
                  feedback,
                  createdAt: now,
                  createdBy: reviewerKeyId,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return { ...current, status: 'draft', updatedAt: now, submittedAt: null };
    } catch (error) {
      const reasons = transactionCancellationReasons(error);
      if (reasons?.[0] === 'ConditionalCheckFailed') {
        const item = failedItem(error, 0);
        if (!item) throw notFound();
        throw rejected(rawString(item, 'status') ?? 'unknown');
      }
      if (!isTransactionConflict(error) || attempt >= MAX_ATTEMPTS) throw error;
    }
    await conflictBackoff(attempt);
  }
}

/**
 * Delete an SOP with all its review comments in one transaction. The SOP's delete is conditioned
 * on its comment count, so a send-back landing in between makes it read again instead of leaving
 * an orphaned comment. A transaction holds 100 items: beyond 99 comments the oldest go first, and
 * the SOP goes last with the rest, so a failure midway leaves the SOP in place for a retry.
 */
export async function deleteSop(workspace: string, id: string): Promise<void> {
  const sopKey = keys.sop(workspace, id);
  for (let attempt = 1; ; attempt++) {
    const items = await queryAll({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :sop AND :end',
      ExpressionAttributeValues: { ':pk': sopKey.pk, ':sop': sopKey.sk, ':end': keys.sopCollectionEnd(id) },
      ProjectionExpression: 'pk, sk, commentCount',
      ConsistentRead: true,
    });
    const sopItem = items.find((item) => item.sk === sopKey.sk);
    if (!sopItem) throw notFound();
    const comments = items.filter((item) => item !== sopItem);
    const deleteOf = (item: Record<string, unknown>): TransactItem => ({
      Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk } },
    });
    const overflow = comments.slice(0, Math.max(0, comments.length - 99));
    for (let start = 0; start < overflow.length; start += 100) {
      await dynamo.send(new TransactWriteCommand({ TransactItems: overflow.slice(start, start + 100).map(deleteOf) }));
    }
    try {
      await dynamo.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Delete: {
                TableName: tableName,
                Key: sopKey,
                ConditionExpression: 'attribute_exists(pk) AND commentCount = :comments',
                ExpressionAttributeValues: { ':comments': sopItem.commentCount },
              },
            },
            ...comments.slice(overflow.length).map(deleteOf),
          ],
        }),
      );
      return;
    } catch (error) {
      const reasons = transactionCancellationReasons(error);
      const raced = reasons !== null && (reasons[0] === 'ConditionalCheckFailed' || reasons.includes('TransactionConflict'));
      if (!raced || attempt >= MAX_ATTEMPTS) throw error;
    }
    await conflictBackoff(attempt);
  }
}
