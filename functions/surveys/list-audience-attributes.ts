/** GET /surveys/audience-attributes: the catalog targeting rules are checked against (GetItem). */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listAudienceAttributes as route } from '../../lib/surveys/routes.ts';
import { listAudienceAttributes as readCatalog } from '../../lib/surveys/store/audience.ts';

export async function listAudienceAttributes({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  return { body: { ok: true, attributes: await readCatalog(auth.workspace.slug) } };
}

export const handler = apiHandler(route).handler(listAudienceAttributes);
