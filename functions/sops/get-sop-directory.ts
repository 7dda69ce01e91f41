/** GET /sops/directory: the people and teams an SOP can reference. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listDirectory } from '../../lib/sops/directory.ts';
import { getSopDirectory as route } from '../../lib/sops/routes.ts';

export async function getSopDirectory({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { people, teams } = await listDirectory(auth.workspace.slug);
  return { body: { ok: true, people, teams } };
}

export const handler = apiHandler(route).handler(getSopDirectory);
