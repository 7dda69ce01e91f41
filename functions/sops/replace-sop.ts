/** PUT /sops/{id}: full replacement of the content; a published SOP goes back to draft. */
import { replaceSop as writeSop } from '../../lib/data/sops.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { replaceSop as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';
import { sopContentOf } from '../../lib/sops/content.ts';
import { assertDirectoryReferences } from '../../lib/sops/references.ts';

export async function replaceSop({ auth, params, body }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const content = sopContentOf(body);
  await assertDirectoryReferences(slug, content);
  const sop = await writeSop(slug, params.id, content);
  return { body: { ok: true, sop } };
}

export const handler = apiHandler(route).handler(replaceSop);
