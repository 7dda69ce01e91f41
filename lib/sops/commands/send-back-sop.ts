/**
 * POST /sops/{id}/send-back: under_review → draft, the feedback kept as a review comment. The SOP is
 * read first (the answer is exactly what was written), then the step and the comment are one
 * transaction. Round trips: 2.
 */
import { sopNotFound } from '../errors.ts';
import type { Sop } from '../record.ts';
import { writeSendBack } from '../store/reviews.ts';
import { findSop } from '../store/sops.ts';
import { SEND_BACK, stepAnswer, stepRefusal } from '../workflow.ts';

export async function sendBackSop(workspace: string, id: string, feedback: string, reviewerKeyId: string): Promise<Sop> {
  const current = await findSop(workspace, id);
  const refused = stepRefusal(SEND_BACK, current ?? undefined);
  if (refused) throw refused;
  if (!current) throw sopNotFound();
  return stepAnswer(SEND_BACK, await writeSendBack(current, workspace, feedback, reviewerKeyId), `${workspace}/${id}`);
}
