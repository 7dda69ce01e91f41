/**
 * SOPs: `SOP#<id>` items in the workspace's partition, each the head of an item collection that
 * holds its review comments (keys.sop*, keys.sopComment), listed through gsi1 by status. Every
 * write is one conditional write (an UpdateItem or one transaction) whose condition names the state
 * it starts from, so racing requests cannot both succeed; a failed condition comes back with the
 * item as it is, which the rules (../workflow.ts) turn into 404 or 400 without a second read.
 * Round trips: list, read: 1; create: 2 (the department's counter, then one transaction);
 * replace: 1, or 3 when the department changes (see moveSop); delete: 2 (the collection, then one
 * transaction; one more per 100 comments beyond 99). The commands (../commands/) retry a lost race,
 * and a lost serial claim through ../next-serial.ts.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { isTransactionConflict } from '../../platform/data/conditions.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { TABLE } from '../../platform/data/table.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { sopEntity } from '../entities.ts';
import { CONTENT_FIELDS, type Sop, type SopComment, type SopContent, type SopStep, storedSteps, toSop, toSopComment } from '../record.ts';
import { LOCKED_FOR_EDITS } from '../workflow.ts';
import { SERIAL_CLAIM, SOP_WRITE_ATTEMPTS, serialClaim } from './serials.ts';

function byCreation(a: Sop, b: Sop): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The Query of an SOP's item collection: the SOP, then its comments, oldest first. */
function collectionQuery(workspace: string, id: string) {
  const sopKey = sopEntity.keys.sop(workspace, id);
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :sop AND :end',
    ExpressionAttributeValues: { ':pk': sopKey.pk, ':sop': sopKey.sk, ':end': sopEntity.keys.collectionEnd(id) },
    ConsistentRead: true,
  };
}

/** Every SOP of a workspace, or only the published ones, oldest first; gsi1 holds no comments. */
export async function readSops(workspace: string, options: { publishedOnly: boolean }): Promise<Sop[]> {
  const items = await queryAll({
    TableName: tableName,
    IndexName: TABLE.gsi1.name,
    KeyConditionExpression: options.publishedOnly ? 'gsi1pk = :pk AND begins_with(gsi1sk, :status)' : 'gsi1pk = :pk',
    ExpressionAttributeValues: {
      ':pk': sopEntity.keys.listingPk(workspace),
      ...(options.publishedOnly ? { ':status': sopEntity.keys.listingStatusPrefix('published') } : {}),
    },
  });
  return items.map(toSop).sort(byCreation);
}

/** One SOP without its comments (what a read-only key may see), strongly consistent. */
export async function findSop(workspace: string, id: string): Promise<Sop | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: sopEntity.keys.sop(workspace, id), ConsistentRead: true }),
  );
  return Item ? toSop(Item) : null;
}

/** One SOP and its review comments, oldest first, in one Query of its item collection. */
export async function findSopWithComments(workspace: string, id: string): Promise<{ sop: Sop; comments: SopComment[] } | null> {
  const items = await queryAll(collectionQuery(workspace, id));
  const sopItem = items.find((item) => item.sk === sopEntity.keys.sop(workspace, id).sk);
  if (!sopItem) return null;
  return { sop: toSop(sopItem), comments: items.filter((item) => item !== sopItem).map(toSopComment) };
}

/**
 * Create a draft SOP with the serial after `last` (its department's counter as read), in one
 * transaction that claims it on the counter. Throws `TransactionCancelledError` naming `SERIAL_CLAIM`
 * when another writer took the serial since (isSerialClaimLost).
 */
export async function insertSop(workspace: string, id: string, content: SopContent, now: string, last: number): Promise<Sop> {
  const item: Record<string, unknown> = {
    ...sopEntity.keys.sop(workspace, id),
    ...sopEntity.keys.listing(workspace, 'draft', id),
    entity: sopEntity.name,
    id,
    serial: last + 1,
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
    {
      [SERIAL_CLAIM]: serialClaim(workspace, content.departmentId, last),
      sop: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    },
    { attempts: 1 },
  );
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
    .set('gsi1sk', sopEntity.keys.listing(workspace, 'draft', id).gsi1sk)
    .patch(content, CONTENT_FIELDS, { encode: (field, value) => (field === 'steps' ? storedSteps(value as SopStep[]) : value) })
    .remove('submittedAt')
    .remove('publishedAt')
    .remove('approvedBy');
  if (serial !== undefined) changed.set('serial', serial);
  const status = changed.placeholder('status');
  const department = changed.placeholder('departmentId');
  return {
    TableName: tableName,
    Key: sopEntity.keys.sop(workspace, id),
    ...changed.build({
      expression:
        `attribute_exists(pk) AND ${status} <> :locked AND ` +
        (fromDepartment === null ? `attribute_not_exists(${department})` : `${department} = :fromDepartment`),
      values: { ':locked': LOCKED_FOR_EDITS, ...(fromDepartment === null ? {} : { ':fromDepartment': fromDepartment }) },
    }),
  };
}

/**
 * Replace an SOP's content (PUT) in one conditional UpdateItem, on condition that it exists, is not
 * under review and is still in the department the content names: the SOP as written, or the item
 * as the write found it (absent, under review, or in another department: see moveSop).
 */
export async function writeReplacement(
  workspace: string,
  id: string,
  content: SopContent,
  now: string,
): Promise<{ sop: Sop; refused?: undefined } | { sop?: undefined; refused: Record<string, unknown> | undefined }> {
  const outcome = await updateItem(replacement(workspace, id, content, now, content.departmentId), SOP_WRITE_ATTEMPTS);
  return outcome.written ? { sop: toSop(outcome.written) } : { refused: outcome.refused.current };
}

/**
 * PUT with a new department: one transaction replaces the content, gives the SOP the serial after
 * `last` (the new department's counter as read) and claims it on that department's counter, on
 * condition that the SOP is still in its old department and not under review. The old serial is never
 * handed out again (its counter only grows). Returns null when only the SOP's condition failed, so the
 * caller can look again; throws as insertSop does when the claim was lost.
 */
export async function moveSop(
  workspace: string,
  id: string,
  content: SopContent,
  current: Record<string, unknown>,
  now: string,
  last: number,
): Promise<Sop | null> {
  const oldDepartment = (current.departmentId as string | undefined) ?? null;
  const serial = last + 1;
  try {
    await transact(
      {
        [SERIAL_CLAIM]: serialClaim(workspace, content.departmentId, last),
        sop: { Update: replacement(workspace, id, content, now, oldDepartment, serial) },
      },
      { attempts: 1 },
    );
  } catch (error) {
    // Only the SOP's condition failed: not a counter race, so do not spend a retry on the counter.
    if (error instanceof TransactionCancelledError && error.failed('sop') && !error.failed(SERIAL_CLAIM)) return null;
    throw error;
  }
  return toSop({ id, serial, status: 'draft', ...content, createdAt: current.createdAt, updatedAt: now });
}

/** The keys of an SOP's item collection (the SOP with its comment count, then its comments, oldest first); null without the SOP. */
export async function findSopCollectionKeys(
  workspace: string,
  id: string,
): Promise<{ sop: Record<string, unknown>; comments: Record<string, unknown>[] } | null> {
  const items = await queryAll({ ...collectionQuery(workspace, id), ProjectionExpression: 'pk, sk, commentCount' });
  const sop = items.find((item) => item.sk === sopEntity.keys.sop(workspace, id).sk);
  return sop ? { sop, comments: items.filter((item) => item !== sop) } : null;
}

function commentDeletes(from: Record<string, unknown>[]): Record<string, TransactWrite> {
  return Object.fromEntries(
    from.map((item): [string, TransactWrite] => [
      `comment:${item.sk as string}`,
      { Delete: { TableName: tableName, Key: { pk: item.pk, sk: item.sk } } },
    ]),
  );
}

/** Delete up to 100 comments in one transaction (the oldest, beyond what fits beside the SOP's own delete). */
export async function deleteSopComments(comments: Record<string, unknown>[]): Promise<void> {
  await transact(commentDeletes(comments));
}

/**
 * Delete the SOP with its last (at most 99) comments in one transaction, the SOP's delete
 * conditioned on the comment count read with them, so a send-back landing in between fails it
 * (isSopDeleteRace) instead of leaving an orphaned comment.
 */
export async function deleteSopWithComments(
  workspace: string,
  id: string,
  sop: Record<string, unknown>,
  comments: Record<string, unknown>[],
) {
  await transact(
    {
      sop: {
        Delete: {
          TableName: tableName,
          Key: sopEntity.keys.sop(workspace, id),
          ConditionExpression: 'attribute_exists(pk) AND commentCount = :comments',
          ExpressionAttributeValues: { ':comments': sop.commentCount },
        },
      },
      ...commentDeletes(comments),
    },
    { attempts: 1 },
  );
}

/** Whether deleteSopWithComments lost a race (the SOP changed since its collection was read), so reading again may succeed. */
export function isSopDeleteRace(error: unknown): boolean {
  return (error instanceof TransactionCancelledError && error.failed('sop')) || isTransactionConflict(error);
}
