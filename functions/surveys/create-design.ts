/** POST /surveys/designs: a new design, counted against the workspace's limit (one UpdateItem). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { createSurveyDesign as route } from '../../lib/surveys/routes.ts';
import { createDesign } from '../../lib/surveys/store.ts';

export async function createSurveyDesign({ body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, design: await createDesign(auth.workspace.slug, body) } };
}

export const handler = apiHandler(route).handler(createSurveyDesign);
