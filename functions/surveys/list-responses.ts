/**
 * GET /surveys/{id}/responses: a page of a survey's responses, newest first (one Query), or by
 * respondent (index Query + BatchGetItem), or, with `updatedSince`, the change feed.
 */

import { ValidationError } from '../../lib/platform/errors.ts';
import { listHandler } from '../../lib/platform/http/list-handler.ts';
import { paginate } from '../../lib/platform/pagination.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { assertSurveyExists } from '../../lib/surveys/responses/collecting.ts';
import { listChanges, listRespondentResponses, listResponses } from '../../lib/surveys/responses/response-list.ts';
import { listSurveyResponses as route } from '../../lib/surveys/responses/routes.ts';

export async function listSurveyResponses({
  params,
  query,
  auth,
  page: pageStart,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const workspace = auth.workspace.slug;
  const { limit, versionId, status, respondent, updatedSince } = query;
  if (updatedSince !== undefined && (versionId || status || respondent)) {
    throw new ValidationError('invalid_query', [
      { path: 'query.updatedSince', message: 'the change feed takes no other filter: every change of the survey is in it' },
    ]);
  }
  await assertSurveyExists(workspace, params.id);
  const page = await paginate(pageStart, (start) => {
    if (updatedSince !== undefined) return listChanges(workspace, params.id, updatedSince, start);
    if (respondent !== undefined) return listRespondentResponses(workspace, params.id, respondent, { versionId, status }, start);
    return listResponses(workspace, params.id, { versionId, status }, start);
  });
  const { responses, total, hasMore, nextCursor } = page;
  return { body: { ok: true, responses, pagination: { limit, offset: page.offset, total, hasMore, nextCursor } } };
}

export const handler = listHandler(route).handler(listSurveyResponses);
