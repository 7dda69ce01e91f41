/** POST /sops/{id}/submit: draft → under_review, in one conditional write. */
import type { Sop } from '../record.ts';
import { writeStep } from '../store/reviews.ts';
import { SUBMIT, stepAnswer } from '../workflow.ts';

export async function submitSop(workspace: string, id: string): Promise<Sop> {
  const outcome = await writeStep(workspace, id, SUBMIT, (now) => ({ submittedAt: now }));
  return stepAnswer(SUBMIT, outcome, `${workspace}/${id}`);
}
