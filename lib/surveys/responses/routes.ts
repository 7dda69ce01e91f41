/**
 * Routes of survey responses (module `surveys`, permissions `survey-responses:*`: answers are
 * personal data, so `surveys:read` alone never sees one). Submit, continue, read, list and the
 * change feed, delete, and erasure of one respondent across surveys. `/surveys/responses/erase` is
 * a static path beside `/surveys/{id}`; API Gateway and the sandbox prefer the static segment.
 */
import * as z from 'zod/mini';
import { etagHeader, okBody, requiredIfMatch, routesOf } from '../../platform/route.ts';
import { named, okOnly, pagination, validationIssue } from '../../platform/schemas.ts';
import { ANSWER_ISSUE_CODES } from '../engine/response.ts';
import { surveyIdParams } from '../schemas.ts';
import {
  continueResponseBody,
  eraseBody,
  listResponsesQuery,
  responseParams,
  responseTombstone,
  submitResponseBody,
  surveyResponse,
} from './schemas.ts';

const route = routesOf({
  tag: 'Surveys',
  module: 'surveys',
  omitFromFileNames: 'Survey',
  // The Surveys stack would pass half its resource budget with these: responses, their summary and exports deploy on their own.
  deployedIn: 'Survey responses',
});

const READ = ['survey-responses:read'] as const;
const WRITE = ['survey-responses:write'] as const;
const DELETE = ['survey-responses:delete'] as const;

const RESPONSE_ETAG = etagHeader('The response\'s `revision` as a strong ETag, e.g. `"2"`: PATCH needs it in `If-Match`');
const REQUIRED_IF_MATCH = requiredIfMatch(
  'Required: the response\'s ETag (its `revision`, e.g. `"1"`) as last read. Another revision is 409 `version_conflict` with the ' +
    'current ETag, so two continuations never overwrite each other; missing is 400 `if_match_required`.',
);
const SURVEY_404 = { not_found: "no survey with this id in this workspace (other workspaces' surveys are never visible)" };
const RESPONSE_404 = { not_found: 'no response with this id in this survey of this workspace' };
const INVALID_ANSWERS =
  'the answers do not replay on the survey; `issues` lists each `{severity, code, message, path}` with `path` ' +
  `\`/answers/<questionId>\` and \`code\` one of ${ANSWER_ISSUE_CODES.map((code) => `\`${code}\``).join(', ')}`;
/** The 400's `issues`: a response's answer issues (`invalid_answers`), or the schema's `{path, message}` (`invalid_body`). */
const ANSWER_ISSUES_400 = {
  issues: z
    .array(
      z.union([
        named(
          'SurveyAnswerIssue',
          z.object({
            severity: z.literal('error'),
            code: z.enum(ANSWER_ISSUE_CODES),
            message: z.string(),
            path: z.string().register(z.globalRegistry, { description: 'JSON Pointer into the request body, e.g. `/answers/plan`' }),
          }),
        ),
        validationIssue,
      ]),
    )
    .register(z.globalRegistry, {
      description:
        'With `invalid_answers`: every answer issue found; with `invalid_body`: what breaks the schema (`path` and `message` only)',
    }),
};
const VALIDATION =
  'The answers are replayed on the version as a respondent would go through it (the engine `simulate` runs): an answer to a question ' +
  'never shown on the path the answers produce (hidden by `visibleIf`, jumped over by a route), an option the option filter does not ' +
  'offer, a value of the wrong type or outside the scale, open text past `maxLength` or not its `inputType` is refused. A finished ' +
  'response answers every required question on its path and reaches an ending; a partial one may stop at a required question, and ' +
  'answers past that point are still checked for type and range. The response keeps `path` (the questions shown) and `ending`.';

const responseBody = okBody({ response: surveyResponse });

export const submitSurveyResponse = route({
  operationId: 'submitSurveyResponse',
  method: 'POST',
  path: '/surveys/{id}/responses',
  summary: 'Submit a response',
  description:
    'Stores a response pinned to the version published now (`versionId`). `finished` defaults to true; `false` keeps it open to ' +
    `PATCH. With \`respondent.attributes\` and targeting rules on the survey, the attributes must meet them. ${VALIDATION} ` +
    'Send an `Idempotency-Key` to retry safely (the same key and body within 24 hours return the first response).',
  permissions: WRITE,
  idempotent: true,
  request: { params: surveyIdParams, body: submitResponseBody },
  response: {
    status: 201,
    body: responseBody,
    location: '/surveys/{response.surveyId}/responses/{response.id}',
    description: 'Created (or, for a repeated Idempotency-Key, the first response again)',
    headers: RESPONSE_ETAG,
  },
  errors: {
    400: { invalid_answers: INVALID_ANSWERS, respondent_not_targeted: true },
    404: SURVEY_404,
    409: { survey_not_collecting: true },
    413: { response_too_large: true },
  },
  errorMembers: { 400: ANSWER_ISSUES_400 },
  // GetItem and BatchGetItem: the survey and its version on a cold instance only.
  table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  needs: ['keyed-hash'],
});

export const continueSurveyResponse = route({
  operationId: 'continueSurveyResponse',
  method: 'PATCH',
  path: '/surveys/{id}/responses/{responseId}',
  summary: 'Continue a partial response',
  description:
    'Merges `answers` into the stored ones (`null` removes one) and, with `finished: true`, finishes the response (then it never ' +
    'changes again). Validated against the version the response is pinned to, even after a newer one is published; the survey must ' +
    `still be published. ${VALIDATION}`,
  permissions: WRITE,
  request: { params: responseParams, body: continueResponseBody, headers: REQUIRED_IF_MATCH },
  response: { status: 200, body: responseBody, headers: RESPONSE_ETAG },
  errors: {
    400: { invalid_answers: INVALID_ANSWERS },
    404: RESPONSE_404,
    409: { response_finished: true, survey_not_collecting: true },
    413: { response_too_large: true },
  },
  errorMembers: { 400: ANSWER_ISSUES_400 },
  // GetItem: the response, and its version on a cold instance.
  table: ['GetItem', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
});

export const listSurveyResponses = route({
  operationId: 'listSurveyResponses',
  method: 'GET',
  path: '/surveys/{id}/responses',
  summary: "List a survey's responses, or the change feed",
  description:
    'Newest first, filtered by `versionId`, `status` and `respondent` (an externalId); `pagination.total` counts what the filters ' +
    'select. Responses of archived surveys stay listed. With `updatedSince` the list is a change feed instead: every response ' +
    'created, continued, deleted or erased after that time, oldest change first, a deleted one as `{id, deleted: true, deletedAt}` ' +
    '(tombstones are kept 30 days and hold nothing about the respondent); the feed takes no other filter. The feed is read from an ' +
    'index that may lag a write by a moment: overlap `updatedSince` by a few seconds, and treat entries by `id` and `revision`. ' +
    'A survey of another workspace, or none, is 404 (one read the first time an instance meets the survey).',
  permissions: READ,
  request: { params: surveyIdParams, query: listResponsesQuery },
  response: {
    status: 200,
    body: okBody({ responses: z.array(z.union([surveyResponse, responseTombstone])), pagination }),
  },
  errors: { 400: { invalid_query: '`updatedSince` with another filter, or `cursor` with `offset`' } },
  table: ['Query', 'BatchGetItem'],
  needs: ['keyed-hash'],
});

export const getSurveyResponse = route({
  operationId: 'getSurveyResponse',
  method: 'GET',
  path: '/surveys/{id}/responses/{responseId}',
  summary: 'Read a response',
  description: 'One response with its answers, path and ending, and its revision as ETag (send it back in If-Match to continue).',
  permissions: READ,
  request: { params: responseParams },
  response: { status: 200, body: responseBody, headers: RESPONSE_ETAG },
  errors: { 404: RESPONSE_404 },
  table: ['GetItem'],
});

export const deleteSurveyResponse = route({
  operationId: 'deleteSurveyResponse',
  method: 'DELETE',
  path: '/surveys/{id}/responses/{responseId}',
  summary: 'Delete a response',
  description:
    'Deletes the response and its answers (of an archived survey too): the summary forgets it, and the change feed shows its tombstone for 30 days.',
  permissions: DELETE,
  request: { params: responseParams },
  response: { status: 200, body: okOnly },
  errors: { 404: RESPONSE_404 },
  table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
});

export const eraseSurveyRespondent = route({
  operationId: 'eraseSurveyRespondent',
  method: 'POST',
  path: '/surveys/responses/erase',
  summary: "Erase a respondent's responses",
  description:
    'Right to erasure: deletes every response of the respondent given by `externalId` or `email` (case-insensitive) in the workspace, ' +
    'across surveys, as DELETE does one. At most 1,000 per call: while `hasMore` is true, call again. Respondents are found through ' +
    'an index keyed by a keyed hash of the identifier; the identifier itself is stored nowhere but in the responses.',
  permissions: DELETE,
  request: { body: eraseBody },
  response: { status: 200, body: okBody({ erased: z.int(), hasMore: z.boolean() }) },
  table: ['Query', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  needs: ['keyed-hash'],
  timeoutSeconds: 60,
});
