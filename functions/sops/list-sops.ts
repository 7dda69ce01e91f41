/** GET /sops: every SOP the key may see (read-only keys: published only). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { listSops } from '../../lib/sops/commands/list-sops.ts';
import { listSops as route } from '../../lib/sops/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => {
  const sops = await listSops(auth.workspace.slug, auth);
  return { body: { ok: true, sops } };
});
