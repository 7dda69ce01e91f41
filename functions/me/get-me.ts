/** GET /me: confirms the key works for the selected workspace. */

import { getMe as route } from '../../lib/introduction/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getMe({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, data: { workspace: auth.workspace.slug, authenticated: true } } };
}

export const handler = apiHandler(route).handler(getMe);
