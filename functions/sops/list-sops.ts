/** GET /sops: every SOP the key may see (read-only keys: published only). */
import { listSops as listSopsOf } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { listSops as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';
import { seesUnpublishedSops } from '../../lib/sops/visibility.ts';

export async function listSops({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sops = await listSopsOf(auth.workspace.slug, { publishedOnly: !seesUnpublishedSops(auth) });
  return { body: { ok: true, sops } };
}

export const handler = apiHandler(route).handler(listSops);
