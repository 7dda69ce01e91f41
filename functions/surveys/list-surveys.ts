/** GET /surveys: a page of listed surveys (archived never), newest first, in one Query; by offset or by cursor. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listSurveys } from '../../lib/surveys/commands/list-surveys.ts';
import { listSurveys as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => {
  const workspace = auth.workspace.slug;
  const { limit, offset, cursor, status } = query;
  // The cursor is bound to the filter too: its offset and total mean something only under the same `status`.
  const list = `${route.operationId}:${status ?? 'listed'}`;
  const page = await paginate({ workspace, list, limit, offset, cursor }, (start) => listSurveys(workspace, { ...start, status }));
  const { surveys, total, hasMore, nextCursor } = page;
  return { body: { ok: true, surveys, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
