/** PUT /sops/{id}: full replacement of the content; a published SOP goes back to draft. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { replaceSop } from '../../lib/sops/commands/replace-sop.ts';
import { replaceSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params, body }) => {
  const sop = await replaceSop(auth.workspace.slug, params.id, body);
  return { body: { ok: true, sop } };
});
