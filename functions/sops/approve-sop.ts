/** POST /sops/{id}/approve: under_review → published, recording the approving key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { approveSop } from '../../lib/sops/commands/approve-sop.ts';
import { approveSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const sop = await approveSop(auth.workspace.slug, params.id, auth.key.id);
  return { body: { ok: true, sop } };
});
