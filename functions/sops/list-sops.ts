/** GET /sops: every SOP the key may see (read-only keys: published only). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listSops as route } from '../../lib/sops/routes.ts';
import { listSops as listSopsOf } from '../../lib/sops/store/sops.ts';
import { seesUnpublishedSops } from '../../lib/sops/visibility.ts';

export async function listSops({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const sops = await listSopsOf(auth.workspace.slug, { publishedOnly: !seesUnpublishedSops(auth) });
  return { body: { ok: true, sops } };
}

export const handler = apiHandler(route).handler(listSops);
