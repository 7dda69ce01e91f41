/** PUT /sops/{id}: full replacement of the content; a published SOP goes back to draft. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { sopContentOf } from '../../lib/sops/content.ts';
import { assertDirectoryReferences } from '../../lib/sops/references.ts';
import { replaceSop as route } from '../../lib/sops/routes.ts';
import { replaceSop as writeSop } from '../../lib/sops/store/sops.ts';

export async function replaceSop({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const content = sopContentOf(body);
  await assertDirectoryReferences(slug, content);
  const sop = await writeSop(slug, params.id, content);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(replaceSop);
