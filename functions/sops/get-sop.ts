/** GET /sops/{id}: one SOP, with its review comments for keys that work on SOPs. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getSop } from '../../lib/sops/commands/get-sop.ts';
import { getSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  const { sop, comments } = await getSop(auth.workspace.slug, params.id, auth);
  return { body: { ok: true, sop, comments } };
});
