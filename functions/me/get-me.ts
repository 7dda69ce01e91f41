/** GET /me: confirms the key works for the selected workspace. */
import { apiHandler } from '../../lib/http/api-handler.ts';
import { getMe as route } from '../../lib/routes/introduction.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function getMe({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, data: { workspace: auth.workspace.slug, authenticated: true } } };
}

export const handler = apiHandler(route).handler(getMe);
