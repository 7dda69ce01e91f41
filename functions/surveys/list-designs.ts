/** GET /surveys/designs: the workspace's designs (GetItem). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listSurveyDesigns as route } from '../../lib/surveys/routes.ts';
import { listDesigns } from '../../lib/surveys/store/designs.ts';

export async function listSurveyDesigns({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, designs: await listDesigns(auth.workspace.slug) } };
}

export const handler = apiHandler(route).handler(listSurveyDesigns);
