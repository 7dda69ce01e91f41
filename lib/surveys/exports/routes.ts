/** Survey export routes (module `surveys`, permission `survey-responses:read`: a file of answers is personal data). */
import { okBody, routesOf } from '../../platform/route.ts';
import { surveyIdParams } from '../schemas.ts';
import { createExportBody, exportParams, surveyExport } from './schemas.ts';

// Deployed beside the responses' routes (responses/routes.ts says why).
const route = routesOf({ tag: 'Surveys', module: 'surveys', deployedIn: 'Survey responses' });

const exportResponse = okBody({ export: surveyExport });

export const createSurveyExport = route({
  operationId: 'createSurveyExport',
  method: 'POST',
  path: '/surveys/{id}/exports',
  summary: 'Export responses to a file',
  description:
    'Starts writing the responses (of one version or all, partial or finished, started within `from`…`to`) to a CSV or JSON ' +
    'Lines file, and answers at once with the export, `queued`: poll `Location` until `done`, then download `downloadUrl`. ' +
    'One column per question of every version in the file (a question a later version removed keeps its column; a matrix ' +
    'has one per row), `not shown` where the respondent never saw the question and empty where they left it blank. ' +
    'Respondent identifiers are never exported. Files expire after 24 hours. Send an `Idempotency-Key` to retry safely.',
  permissions: ['survey-responses:read'],
  idempotent: true,
  request: { params: surveyIdParams, body: createExportBody },
  response: {
    status: 202,
    body: exportResponse,
    headers: { Location: { description: 'Where the export is read: `/api/v1/surveys/{id}/exports/{exportId}`' } },
  },
  errors: { 404: { not_found: 'no survey with this id in this workspace, or no version `versionId` in it' } },
  // The survey (and version) checked in the transaction that puts the export record.
  // BatchGetItem: a retry's remembered response, read beside the workspace and the key.
  table: ['BatchGetItem', 'ConditionCheckItem', 'PutItem'],
});

export const getSurveyExport = route({
  operationId: 'getSurveyExport',
  method: 'GET',
  path: '/surveys/{id}/exports/{exportId}',
  summary: 'Read an export',
  description: 'Its status, and once `done` the number of rows, the size and a download link valid for 15 minutes.',
  permissions: ['survey-responses:read'],
  request: { params: exportParams },
  response: { status: 200, body: exportResponse },
  errors: { 404: { not_found: 'no such export of this survey in this workspace, or it expired (24 hours after it was asked for)' } },
  table: ['GetItem'],
});
