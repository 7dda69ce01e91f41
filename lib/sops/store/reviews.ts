/**
 * The SOP review workflow's writes: submit, approve, send back (with its review comment, a
 * `SOP#<id>#COMMENT#…` item in the SOP's collection). Each is one conditional write on the status
 * the step starts from (../workflow.ts); a failed condition comes back with the SOP as it is, for
 * the rules to decide between 404 and 400 `invalid_state` (the commands, ../commands/).
 */
import { randomUUID } from 'node:crypto';
import { tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { type UpdateBuilder, update } from '../../platform/data/update.ts';
import { sopCommentEntity, sopEntity } from '../entities.ts';
import { type Sop, toSop } from '../record.ts';
import { SEND_BACK, type StepOutcome, type WorkflowStep } from '../workflow.ts';
import { SOP_WRITE_ATTEMPTS } from './serials.ts';

/** The SOP's side of a step: its status, listing and time, on condition that it is still where the step starts. */
function stepUpdate(workspace: string, id: string, step: WorkflowStep, now: string, changed: UpdateBuilder = update()) {
  changed
    .set('status', step.to)
    .set('updatedAt', now)
    .set('gsi1sk', sopEntity.keys.listing(workspace, step.to, id).gsi1sk);
  return {
    TableName: tableName,
    Key: sopEntity.keys.sop(workspace, id),
    // On a missing item the condition is false too; the absent item tells the two apart.
    ...changed.build({ expression: `${changed.placeholder('status')} = :from`, values: { ':from': step.from } }),
  };
}

/** One workflow step: a single UpdateItem conditioned on the status it starts from. */
export async function writeStep(
  workspace: string,
  id: string,
  step: WorkflowStep,
  set: (now: string) => Record<string, unknown>,
): Promise<StepOutcome> {
  const now = new Date().toISOString();
  const changed = update();
  for (const [name, value] of Object.entries(set(now))) changed.set(name, value);
  const outcome = await updateItem(stepUpdate(workspace, id, step, now, changed), SOP_WRITE_ATTEMPTS);
  return outcome.written ? { sop: toSop(outcome.written) } : { refused: outcome.refused.current };
}

/**
 * under_review → draft with the feedback kept as a review comment, in one transaction, answered
 * with `current` (the SOP as read before) as it now stands: while under review nothing but this
 * transition, approval or deletion can change it, and those all fail the transaction's condition
 * (so a transaction that lost a race is sent again as it is).
 */
export async function writeSendBack(current: Sop, workspace: string, feedback: string, reviewerKeyId: string): Promise<StepOutcome> {
  const { id } = current;
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
              ...sopCommentEntity.keys.comment(workspace, id, now, commentId),
              entity: sopCommentEntity.name,
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
    if (error instanceof TransactionCancelledError && error.failed('sop')) return { refused: error.current('sop') ?? undefined };
    throw error;
  }
  return { sop: { ...current, status: 'draft', updatedAt: now, submittedAt: null } };
}
