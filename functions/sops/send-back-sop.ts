/** POST /sops/{id}/send-back: under_review → draft, keeping the feedback as a review comment. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { sendBackSop } from '../../lib/sops/commands/send-back-sop.ts';
import { sendBackSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params, body }) => {
  const sop = await sendBackSop(auth.workspace.slug, params.id, body.feedback, auth.key.id);
  return { body: { ok: true, sop } };
});
