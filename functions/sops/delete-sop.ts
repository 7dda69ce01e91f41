/** DELETE /sops/{id}: the SOP and its review comments, in any state. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { deleteSop } from '../../lib/sops/commands/delete-sop.ts';
import { deleteSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => {
  await deleteSop(auth.workspace.slug, params.id);
  return { body: { ok: true } };
});
