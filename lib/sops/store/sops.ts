/**
 * SOPs: `SOP#<id>` items in the workspace's partition, each the head of an item collection that
 * holds its review comments (keys.sop*, keys.sopComment), listed through gsi1 by status. Every
 * write is one conditional write (an UpdateItem or one transaction) whose condition names the state
 * it starts from, so racing requests cannot both succeed; a failed condition comes back with the
 * item as it is, which the rules (../workflow.ts) turn into 404 or 400 without a second read.
 * Round trips: list, read: 1; create: 2 (the department's counter, then one transaction);
 * replace: 1, or 3 when the department changes (see moveSop); delete: 2 (the collection, then one
 * transaction; one more per 100 comments beyond 99).
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { conflictBackoff, isTransactionConflict } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { TABLE } from '../../platform/data/table.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { CONTENT_FIELDS, type Sop, type SopComment, type SopContent, type SopStep, storedSteps, toSop, toSopComment } from '../record.ts';
import { editRefusal, LOCKED_FOR_EDITS, sopNotFound } from '../workflow.ts';
import { readLastSerial, SERIAL_CLAIM, SOP_WRITE_ATTEMPTS, withNextSerial } from './serials.ts';

function byCreation(a: Sop, b: Sop): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The Query of an SOP's item collection: the SOP, then its comments, oldest first. */
function collectionQuery(workspace: string, id: string) {
  const sopKey = keys.sop(workspace, id);
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :sop AND :end',
    ExpressionAttributeValues: { ':pk': sopKey.pk, ':sop': sopKey.sk, ':end': keys.sopCollectionEnd(id) },
    ConsistentRead: true,
  };
}

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
  const items = await queryAll(collectionQuery(workspace, id));
  const sopItem = items.find((item) => item.sk === keys.sop(workspace, id).sk);
  if (!sopItem) return null;
  return { sop: toSop(sopItem), comments: items.filter((item) => item !== sopItem).map(toSopComment) };
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
    await transact(
      { [SERIAL_CLAIM]: claim, sop: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } } },
      { attempts: 1 },
    );
  });
  return toSop(item);
}

/**
 * The update of a PUT: the content becomes exactly `content` (null fields removed), the SOP a draft
 * with its review and publication stamps cleared, on condition that it exists, is not under review
 * and is in `fromDepartment`. `serial` gives it a new serial (a department move).
 */
function replacement(workspace: string, id: string, content: SopContent, now: string, fromDepartment: string | null, serial?: number) {
  const changed = update()
    .set('status', 'draft')
    .set('updatedAt', now)
    .set('gsi1sk', keys.sopListing(workspace, 'draft', id).gsi1sk)
    .patch(content, CONTENT_FIELDS, { encode: (field, value) => (field === 'steps' ? storedSteps(value as SopStep[]) : value) })
    .remove('submittedAt')
    .remove('publishedAt')
    .remove('approvedBy');
  if (serial !== undefined) changed.set('serial', serial);
  const status = changed.placeholder('status');
  const department = changed.placeholder('departmentId');
  return {
    TableName: tableName,
    Key: keys.sop(workspace, id),
    ...changed.build({
      expression:
        `attribute_exists(pk) AND ${status} <> :locked AND ` +
        (fromDepartment === null ? `attribute_not_exists(${department})` : `${department} = :fromDepartment`),
      values: { ':locked': LOCKED_FOR_EDITS, ...(fromDepartment === null ? {} : { ':fromDepartment': fromDepartment }) },
    }),
  };
}

/**
 * Replace an SOP's content (PUT): from draft or published, back to draft, with the review and
 * publication stamps cleared. Under review → 400 invalid_state, nothing changed. When the
 * department changes, the SOP takes the next serial of its new department (see moveSop).
 */
export async function replaceSop(workspace: string, id: string, content: SopContent): Promise<Sop> {
  for (let round = 1; ; round++) {
    const now = new Date().toISOString();
    const outcome = await updateItem(replacement(workspace, id, content, now, content.departmentId), SOP_WRITE_ATTEMPTS);
    if (outcome.written) return toSop(outcome.written);
    const { current } = outcome.refused;
    const refused = editRefusal(current);
    if (refused) throw refused;
    // Neither absent nor under review: the SOP is in another department.
    const moved = await moveSop(workspace, id, content, current!, now);
    if (moved) return moved;
    // The SOP changed between the two writes; look again unless that keeps happening.
    if (round >= SOP_WRITE_ATTEMPTS) throw new Error(`SOP ${workspace}/${id} kept changing during a department move`);
  }
}

/**
 * PUT with a new department: one transaction replaces the content, gives the SOP the next serial
 * of the new department and claims it on that department's counter, on condition that the SOP is
 * still in its old department and not under review. The old serial is never handed out again (its
 * counter only grows). Returns null when the SOP's condition failed, so the caller can look again.
 */
async function moveSop(
  workspace: string,
  id: string,
  content: SopContent,
  current: Record<string, unknown>,
  now: string,
): Promise<Sop | null> {
  const oldDepartment = (current.departmentId as string | undefined) ?? null;
  let sopChanged = false;
  const serial = await withNextSerial(
    workspace,
    content.departmentId,
    readLastSerial(workspace, content.departmentId),
    async (serial, claim) => {
      try {
        await transact(
          { [SERIAL_CLAIM]: claim, sop: { Update: replacement(workspace, id, content, now, oldDepartment, serial) } },
          { attempts: 1 },
        );
      } catch (error) {
        // Only the SOP's condition failed: not a counter race, so do not spend a retry on the counter.
        if (error instanceof TransactionCancelledError && error.failed('sop') && !error.failed(SERIAL_CLAIM)) {
          sopChanged = true;
          return;
        }
        throw error;
      }
    },
  );
  if (sopChanged) return null;
  return toSop({ id, serial, status: 'draft', ...content, createdAt: current.createdAt, updatedAt: now });
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
    const items = await queryAll({ ...collectionQuery(workspace, id), ProjectionExpression: 'pk, sk, commentCount' });
    const sopItem = items.find((item) => item.sk === sopKey.sk);
    if (!sopItem) throw sopNotFound();
    const comments = items.filter((item) => item !== sopItem);
    const deletes = (from: Record<string, unknown>[]) =>
      Object.fromEntries(
        from.map((item): [string, TransactWrite] => [
          `comment:${item.sk as string}`,
          { Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk } } },
        ]),
      );
    const overflow = comments.slice(0, Math.max(0, comments.length - 99));
    for (let start = 0; start < overflow.length; start += 100) await transact(deletes(overflow.slice(start, start + 100)));
    try {
      await transact(
        {
          sop: {
            Delete: {
              TableName: tableName,
              Key: sopKey,
              ConditionExpression: 'attribute_exists(pk) AND commentCount = :comments',
              ExpressionAttributeValues: { ':comments': sopItem.commentCount },
            },
          },
          ...deletes(comments.slice(overflow.length)),
        },
        { attempts: 1 },
      );
      return;
    } catch (error) {
      const raced = (error instanceof TransactionCancelledError && error.failed('sop')) || isTransactionConflict(error);
      if (!raced || attempt >= SOP_WRITE_ATTEMPTS) throw error;
    }
    await conflictBackoff(attempt);
  }
}
