/**
 * The SOP review workflow's writes: submit, approve, send back (with its review comment, a
 * `SOP#<id>#COMMENT#…` item in the SOP's collection). Each is one conditional write on the status
 * the step starts from (../workflow.ts); a failed condition comes back with the SOP as it is, and
 * the rules decide between 404 and 400 `invalid_state`. Round trips: submit, approve: 1;
 * send back: 2 (reads the SOP it answers with, then one transaction).
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { type UpdateBuilder, update } from '../../platform/data/update.ts';
import { type Sop, toSop } from '../record.ts';
import { APPROVE, SEND_BACK, SUBMIT, sopNotFound, stepRefusal, type WorkflowStep } from '../workflow.ts';
import { SOP_WRITE_ATTEMPTS } from './serials.ts';
import { findSop } from './sops.ts';

/** The SOP's side of a step: its status, listing and time, on condition that it is still where the step starts. */
function stepUpdate(workspace: string, id: string, step: WorkflowStep, now: string, changed: UpdateBuilder = update()) {
  changed
    .set('status', step.to)
    .set('updatedAt', now)
    .set('gsi1sk', keys.sopListing(workspace, step.to, id).gsi1sk);
  return {
    TableName: tableName,
    Key: keys.sop(workspace, id),
    // On a missing item the condition is false too; the absent item tells the two apart.
    ...changed.build({ expression: `${changed.placeholder('status')} = :from`, values: { ':from': step.from } }),
  };
}

/** One workflow step: a single UpdateItem conditioned on the status it starts from. */
async function transition(workspace: string, id: string, step: WorkflowStep, set: (now: string) => Record<string, unknown>): Promise<Sop> {
  const now = new Date().toISOString();
  const changed = update();
  for (const [name, value] of Object.entries(set(now))) changed.set(name, value);
  const outcome = await updateItem(stepUpdate(workspace, id, step, now, changed), SOP_WRITE_ATTEMPTS);
  if (outcome.written) return toSop(outcome.written);
  // Found at the step's starting status yet refused: a change raced the write; the client may retry.
  throw stepRefusal(step, outcome.refused.current) ?? new Error(`SOP ${workspace}/${id}: the ${step.to} write raced another change`);
}

/** draft → under_review. */
export function submitSop(workspace: string, id: string): Promise<Sop> {
  return transition(workspace, id, SUBMIT, (now) => ({ submittedAt: now }));
}

/** under_review → published, recording which key approved it. */
export function approveSop(workspace: string, id: string, approverKeyId: string): Promise<Sop> {
  return transition(workspace, id, APPROVE, (now) => ({ publishedAt: now, approvedBy: approverKeyId }));
}

/**
 * under_review → draft with the feedback kept as a review comment: the status change and the
 * comment are one transaction. The SOP is read first so the response is exactly what was written:
 * while under review nothing but this transition, approval or deletion can change it, and those all
 * fail the transaction's condition (so a transaction that lost a race is sent again as it is).
 */
export async function sendBackSop(workspace: string, id: string, feedback: string, reviewerKeyId: string): Promise<Sop> {
  const current = await findSop(workspace, id);
  const refused = stepRefusal(SEND_BACK, current ?? undefined);
  if (refused) throw refused;
  if (!current) throw sopNotFound();
  const now = new Date().toISOString();
  const commentId = randomUUID();
  try {
    await transact(
      {
        sop: { Update: stepUpdate(workspace, id, SEND_BACK, now, update().add('commentCount', 1).remove('submittedAt')) },
        comment: {
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
      },
      { attempts: SOP_WRITE_ATTEMPTS },
    );
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('sop'))
      throw stepRefusal(SEND_BACK, error.current('sop') ?? undefined) ?? error;
    throw error;
  }
  return { ...current, status: 'draft', updatedAt: now, submittedAt: null };
}
