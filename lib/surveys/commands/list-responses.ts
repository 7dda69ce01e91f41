/**
 * A page of a survey's responses, newest first (one Query), or by respondent (index Query +
 * BatchGetItem), or, with `updatedSince`, the change feed (responses/response-list.ts). A list of an
 * unknown survey's responses is a 404, not an empty page. `paged` reads the page the request asks for.
 */

import { ValidationError } from '../../platform/errors.ts';
import type { PageStart } from '../../platform/pagination.ts';
import { assertSurveyExists } from '../responses/collecting.ts';
import type { ResponseStatus, ResponseTombstone, SurveyResponse } from '../responses/schemas.ts';
import { listChanges, listRespondentResponses, type ResponsePage, readResponsePage } from '../responses/store/response-list.ts';

interface ListFilters {
  versionId?: string | undefined;
  status?: ResponseStatus | undefined;
  respondent?: string | undefined;
  updatedSince?: string | undefined;
}

export async function listResponses<P>(
  workspace: string,
  surveyId: string,
  { versionId, status, respondent, updatedSince }: ListFilters,
  paged: (read: (start: PageStart) => Promise<ResponsePage<SurveyResponse | ResponseTombstone>>) => Promise<P>,
): Promise<P> {
  if (updatedSince !== undefined && (versionId || status || respondent)) {
    throw new ValidationError('invalid_query', [
      { path: 'query.updatedSince', message: 'the change feed takes no other filter: every change of the survey is in it' },
    ]);
  }
  await assertSurveyExists(workspace, surveyId);
  return paged((start) => {
    if (updatedSince !== undefined) return listChanges(workspace, surveyId, updatedSince, start);
    if (respondent !== undefined) return listRespondentResponses(workspace, surveyId, respondent, { versionId, status }, start);
    return readResponsePage(workspace, surveyId, { versionId, status }, start);
  });
}
