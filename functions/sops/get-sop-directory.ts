/** GET /sops/directory: the people and teams an SOP can reference. */
import { listDirectory } from '../../lib/data/sop-directory.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { getSopDirectory as route } from '../../lib/routes/sops.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function getSopDirectory({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { people, teams } = await listDirectory(auth.workspace.slug);
  return { body: { ok: true, people, teams } };
}

export const handler = apiHandler(route).handler(getSopDirectory);
