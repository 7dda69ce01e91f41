/** POST /sops: a new draft SOP with its department serial. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { sopContentOf } from '../../lib/sops/content.ts';
import { assertDirectoryReferences } from '../../lib/sops/references.ts';
import { createSop as route } from '../../lib/sops/routes.ts';
import { createSop as insertSop } from '../../lib/sops/store/sops.ts';

export async function createSop({ auth, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const content = sopContentOf(body);
  // The directory check and the serial counter read share one round trip.
  const sop = await insertSop(slug, content, assertDirectoryReferences(slug, content));
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(createSop);
