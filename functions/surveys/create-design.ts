/** POST /surveys/designs: a new design, counted against the workspace's limit (one UpdateItem). */

import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { createSurveyDesign as route } from '../../lib/surveys/routes.ts';
import type { SurveyDesign } from '../../lib/surveys/schemas.ts';
import { createDesign } from '../../lib/surveys/store/designs.ts';

export async function createSurveyDesign({ body, auth, idempotency }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { design, replayed } = await createDesign(auth.workspace.slug, body, idempotency);
  return { body: { ok: true, design }, headers: replayHeaders(replayed) };
}

export const handler = apiHandler(route).handler(createSurveyDesign, {
  replay: (design) => ({ body: { ok: true, design: design as SurveyDesign } }),
});
