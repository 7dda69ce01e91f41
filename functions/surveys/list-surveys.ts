/** GET /surveys: a page of listed surveys (archived never), newest first, in one Query; by offset or by cursor. */
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listSurveys } from '../../lib/surveys/commands/list-surveys.ts';
import { listSurveys as route } from '../../lib/surveys/routes.ts';

export const handler = listHandler(route).handler(async ({ query, auth, page: pageStart }) => {
  const page = await paginate(pageStart, (start) => listSurveys(auth.workspace.slug, { ...start, status: query.status }));
  const { surveys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, surveys, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
