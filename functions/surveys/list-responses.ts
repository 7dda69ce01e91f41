/** GET /surveys/{id}/responses: a page of responses newest first, or by respondent, or with `updatedSince` the change feed. */
import { createHash } from 'node:crypto';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import { listResponses } from '../../lib/surveys/commands/list-responses.ts';
import { listSurveyResponses as route } from '../../lib/surveys/responses/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, query, auth }) => {
  const workspace = auth.workspace.slug;
  const { limit, offset, cursor, versionId, status, respondent, updatedSince } = query;
  // The cursor is bound to the survey and the filters (its offset and total mean something only under
  // them), by a digest: a cursor is readable by whoever holds it, and `respondent` is personal data.
  const filters = createHash('sha256')
    .update(JSON.stringify([updatedSince, versionId, status, respondent]))
    .digest('base64url');
  const list = `${route.operationId}:${params.id}:${filters}`;
  const page = await listResponses(workspace, params.id, query, (read) => paginate({ workspace, list, limit, offset, cursor }, read));
  const { responses, total, hasMore, nextCursor } = page;
  return { body: { ok: true, responses, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
});
