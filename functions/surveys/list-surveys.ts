/** GET /surveys: a page of listed surveys (archived never), newest first, in one Query. */

import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listSurveys as route } from '../../lib/surveys/routes.ts';
import { listSurveys as readPage } from '../../lib/surveys/store.ts';

export async function listSurveys({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { limit, offset, status } = query;
  const page = await readPage(auth.workspace.slug, { limit, offset, status });
  return { body: { ok: true, surveys: page.surveys, pagination: { limit, offset, total: page.total, hasMore: page.hasMore } } };
}

export const handler = apiHandler(route).handler(listSurveys);
