/** GET /me: confirms the key works for the selected workspace, and what it may do there. */

import { getMe as route } from '../../lib/introduction/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { MODULES } from '../../lib/platform/permissions.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function getMe({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { workspace, key } = auth;
  return {
    body: {
      ok: true,
      data: {
        workspace: workspace.slug,
        authenticated: true,
        permissions: [...key.permissions].sort(),
        modules: MODULES.filter((module) => !workspace.disabledModules.includes(module)).sort(),
      },
    },
  };
}

export const handler = apiHandler(route).handler(getMe);
