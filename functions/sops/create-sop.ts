/** POST /sops: a new draft SOP with its department serial. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { createSop } from '../../lib/sops/commands/create-sop.ts';
import { createSop as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, body }) => {
  const sop = await createSop(auth.workspace.slug, body);
  return { body: { ok: true, sop } };
});
