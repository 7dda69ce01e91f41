/** GET /ideas/labels: the statuses and modules ideas of this workspace may take. */

import { getIdeaLabels as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

// The authorize middleware has just read the workspace item, labels included: no further read.
export async function getIdeaLabels({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { statuses, modules } = auth.workspace.ideaLabels;
  return { body: { ok: true, data: { statuses, modules } } };
}

export const handler = apiHandler(route).handler(getIdeaLabels);
