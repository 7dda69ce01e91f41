/** POST /journeys/validate: the diagnostics content would get, nothing stored. */

import { validateJourneyContent as route } from '../../lib/journeys/routes.ts';
import { validateContent } from '../../lib/journeys/version-content.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function validateJourneyContent({ body, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const diagnostics = await validateContent(auth.workspace.slug, body.content);
  return { body: { ok: true, diagnostics } };
}

export const handler = apiHandler(route).handler(validateJourneyContent);
