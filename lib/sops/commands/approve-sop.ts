/** POST /sops/{id}/approve: under_review → published, recording the approving key, in one conditional write. */
import type { Sop } from '../record.ts';
import { writeStep } from '../store/reviews.ts';
import { APPROVE, stepAnswer } from '../workflow.ts';

export async function approveSop(workspace: string, id: string, approverKeyId: string): Promise<Sop> {
  const outcome = await writeStep(workspace, id, APPROVE, (now) => ({ publishedAt: now, approvedBy: approverKeyId }));
  return stepAnswer(APPROVE, outcome, `${workspace}/${id}`);
}
