/** POST /sops/{id}/submit: draft → under_review. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { submitSop } from '../../lib/sops/commands/submit-sop.ts';
import { submitSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const sop = await submitSop(auth.workspace.slug, params.id);
  return { body: { ok: true, sop } };
});
