/**
 * GET /surveys/{id}/responses: a page of a survey's responses, newest first (one Query), or by
 * respondent (index Query + BatchGetItem), or, with `updatedSince`, the change feed.
 */

import { createHash } from 'node:crypto';
import { ValidationError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { listChanges, listRespondentResponses, listResponses } from '../../lib/surveys/responses/response-list.ts';
import { listSurveyResponses as route } from '../../lib/surveys/responses/routes.ts';

export async function listSurveyResponses({ params, query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const workspace = auth.workspace.slug;
  const { limit, offset, cursor, versionId, status, respondent, updatedSince } = query;
  if (updatedSince !== undefined && (versionId || status || respondent)) {
    throw new ValidationError('invalid_query', [
      { path: 'query.updatedSince', message: 'the change feed takes no other filter: every change of the survey is in it' },
    ]);
  }
  // The cursor is bound to the survey and the filters (its offset and total mean something only under
  // them), by a digest: a cursor is readable by whoever holds it, and `respondent` is personal data.
  const filters = createHash('sha256')
    .update(JSON.stringify([updatedSince, versionId, status, respondent]))
    .digest('base64url');
  const list = `${route.operationId}:${params.id}:${filters}`;
  const page = await paginate({ workspace, list, limit, offset, cursor }, (start) => {
    if (updatedSince !== undefined) return listChanges(workspace, params.id, updatedSince, start);
    if (respondent !== undefined) return listRespondentResponses(workspace, params.id, respondent, { versionId, status }, start);
    return listResponses(workspace, params.id, { versionId, status }, start);
  });
  const { responses, total, hasMore, nextCursor } = page;
  return { body: { ok: true, responses, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
}

export const handler = apiHandler(route).handler(listSurveyResponses);
