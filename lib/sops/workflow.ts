/**
 * The SOP workflow's rules, apart from the store: which status each step starts from and leads to,
 * and what a refusal answers. The store's writes keep their conditions (they guard races); when a
 * condition fails, the store hands the item it saw to these functions, which decide the answer.
 */
import { BadRequestError } from '../platform/errors.ts';
import { sopNotFound } from './errors.ts';
import type { Sop } from './record.ts';
import type { SopStatus } from './schemas.ts';

export interface WorkflowStep {
  from: SopStatus;
  to: SopStatus;
  /** The 400 `invalid_state` message for an SOP found in another status. */
  refusal: (status: string) => string;
}

export const SUBMIT: WorkflowStep = {
  from: 'draft',
  to: 'under_review',
  refusal: (status) => `Only a draft can be submitted for review; this SOP is ${status}`,
};

export const APPROVE: WorkflowStep = {
  from: 'under_review',
  to: 'published',
  refusal: (status) => `Only an SOP under review can be approved; this SOP is ${status}`,
};

export const SEND_BACK: WorkflowStep = {
  from: 'under_review',
  to: 'draft',
  refusal: (status) => `Only an SOP under review can be sent back; this SOP is ${status}`,
};

/** Why `step` cannot start from the SOP as it stands (undefined: there is none), or null when it can. */
export function stepRefusal(step: WorkflowStep, current: { status?: unknown } | undefined): Error | null {
  if (!current) return sopNotFound();
  if (current.status === step.from) return null;
  return new BadRequestError('invalid_state', step.refusal(typeof current.status === 'string' ? current.status : 'unknown'));
}

/** What a step's conditional write came back with: the SOP as written, or the item it found instead (undefined: none). */
export type StepOutcome = { sop: Sop; refused?: undefined } | { sop?: undefined; refused: { status?: unknown } | undefined };

/**
 * The answer of a step's write: the SOP as written, else why the step cannot start from what the
 * write found. Found at the step's starting status yet refused, a change raced the write: a 502 the
 * client may retry.
 */
export function stepAnswer(step: WorkflowStep, outcome: StepOutcome, sop: string): Sop {
  if (outcome.sop) return outcome.sop;
  throw stepRefusal(step, outcome.refused) ?? new Error(`SOP ${sop}: the ${step.to} write raced another change`);
}

/** The status from which a PUT is refused: an SOP under review is the reviewer's to approve or send back. */
export const LOCKED_FOR_EDITS: SopStatus = 'under_review';

/** Why a PUT cannot replace the SOP as it stands, or null when it can (it is then a race to retry). */
export function editRefusal(current: { status?: unknown } | undefined): Error | null {
  if (!current) return sopNotFound();
  if (current.status === LOCKED_FOR_EDITS) {
    return new BadRequestError('invalid_state', 'An SOP under review cannot be edited; approve it or send it back first');
  }
  return null;
}
