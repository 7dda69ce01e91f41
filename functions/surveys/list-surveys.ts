/** GET /surveys: a page of listed surveys (archived never), newest first, in one Query; by offset or by cursor. */

import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listSurveys as route } from '../../lib/surveys/routes.ts';
import { listSurveys as readPage } from '../../lib/surveys/store/surveys.ts';

export async function listSurveys({ query, auth, page: pageStart }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  const { limit, status } = query;
  const page = await paginate(pageStart, (start) => readPage(slug, { ...start, status }));
  const { surveys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, surveys, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listSurveys);
