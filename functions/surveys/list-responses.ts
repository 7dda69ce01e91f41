/** GET /surveys/{id}/responses: a page of responses newest first, or by respondent, or with `updatedSince` the change feed. */
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listResponses } from '../../lib/surveys/commands/list-responses.ts';
import { listSurveyResponses as route } from '../../lib/surveys/responses/routes.ts';

export const handler = listHandler(route).handler(async ({ params, query, auth, page: pageStart }) => {
  const page = await listResponses(auth.workspace.slug, params.id, query, (read) => paginate(pageStart, read));
  const { responses, total, hasMore, nextCursor } = page;
  return { body: { ok: true, responses, pagination: { limit: query.limit, offset: page.offset, total, hasMore, nextCursor } } };
});
