/**
 * Routes of the Surveys area (module `surveys`): surveys, their versions (drafts with validation
 * issues, simulation, publish with breaking-change checks, close), designs and the audience
 * attribute catalog targeting rules are checked against. Static paths (/surveys/designs,
 * /surveys/validate, /surveys/audience-attributes) sit beside /surveys/{id}; API Gateway and the
 * sandbox prefer the static segment, and {id} only takes UUIDs anyway.
 */
import * as z from 'zod/mini';
import { etagHeader, okBody, optionalIfMatch, requiredIfMatch, routesOf } from '../platform/route.ts';
import { okOnly, pagination, validationIssue } from '../platform/schemas.ts';
import {
  audienceAttributes,
  breakingChange,
  createDesignBody,
  createSurveyBody,
  createVersionBody,
  designIdParams,
  issue,
  listSurveysQuery,
  publishBody,
  replaceVersionBody,
  simulateBody,
  simulationRun,
  survey,
  surveyDesign,
  surveyIdParams,
  surveyVersion,
  updateDesignBody,
  updateSurveyBody,
  validateBody,
  versionParams,
  versionSummary,
} from './schemas.ts';

const route = routesOf({ tag: 'Surveys', module: 'surveys', omitFromFileNames: 'Survey' });

const READ = ['surveys:read'] as const;
const WRITE = ['surveys:write'] as const;

// A survey's ETag, which its writes may send back; a version's, which saving its definition must.
const SURVEY_ETAG = etagHeader('The survey\'s `version` as a strong ETag, e.g. `"3"`: send it back in `If-Match`');
const OPTIONAL_IF_MATCH = optionalIfMatch(
  'Optional optimistic concurrency: the survey\'s ETag as read (e.g. `"3"`), several comma-separated, or `*`. ' +
    'At another version the request fails with 409 `version_conflict` and changes nothing.',
);
const VERSION_ETAG = etagHeader('The version\'s `revision` as a strong ETag, e.g. `"2"`: PUT needs it in `If-Match`');
const REQUIRED_IF_MATCH = requiredIfMatch(
  'Required: the version\'s ETag (its `revision`, e.g. `"2"`) as last read. Another revision is 409 `version_conflict` ' +
    'with the current ETag, so two editors never overwrite each other; missing is 400 `if_match_required`.',
  { anyVersion: false },
);

const SURVEY_404 = { not_found: "no survey with this id in this workspace (other workspaces' surveys are never visible)" };
const VERSION_404 = { not_found: 'no survey with this id in this workspace, or no version with this id in it' };
const ARCHIVED_409 = 'the survey is archived and read-only';
const LOCKED_409 = 'the version is published or superseded';
const DEFINITION_413 = { definition_too_large: true } as const;
const DEFINITION_NOTE =
  'The definition is checked for shape and limits (≤ 200 questions, conditions ≤ 5 all/any levels: beyond is 400 `invalid_body`); ' +
  'its logic is then validated and every problem returned in `issues` (errors and warnings, each with a JSON Pointer `path`).';

const IDEMPOTENT_NOTE = 'Send an `Idempotency-Key` to retry safely (the same key and body within 24 hours return the first response).';

const surveyResponse = okBody({ survey });
const versionResponse = okBody({ version: surveyVersion });

export const listSurveys = route({
  operationId: 'listSurveys',
  method: 'GET',
  path: '/surveys',
  summary: 'List surveys',
  description:
    'Newest first. Drafts, published and closed surveys; archived ones are never listed. `status` narrows the list, and ' +
    '`pagination.total` counts the surveys of that status (or of all listed statuses).',
  permissions: READ,
  request: { query: listSurveysQuery },
  response: { status: 200, body: okBody({ surveys: z.array(survey), pagination }) },
  // GetItem: a cursor page reads the counter beside its Query.
  table: ['GetItem', 'Query'],
});

export const createSurvey = route({
  operationId: 'createSurvey',
  method: 'POST',
  path: '/surveys',
  summary: 'Create a survey',
  description:
    "Creates a draft survey with its first draft version (no questions yet, one thank-you ending, in the survey's `language`) and " +
    "returns the workspace's designs; the first survey of a workspace also makes its default design, which new surveys use. " +
    'Send an `Idempotency-Key` to retry safely (the same key and body within 24 hours return the first response).',
  permissions: WRITE,
  idempotent: true,
  request: { body: createSurveyBody },
  response: {
    status: 200,
    body: okBody({ survey, version: surveyVersion, designs: z.array(surveyDesign) }),
    headers: SURVEY_ETAG,
  },
  table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
});

export const listSurveyDesigns = route({
  operationId: 'listSurveyDesigns',
  method: 'GET',
  path: '/surveys/designs',
  summary: 'List survey designs',
  description: "The workspace's designs (appearance a survey can use through `designId`), the default first.",
  permissions: READ,
  response: { status: 200, body: okBody({ designs: z.array(surveyDesign) }) },
  table: ['GetItem'],
});

export const createSurveyDesign = route({
  operationId: 'createSurveyDesign',
  method: 'POST',
  path: '/surveys/designs',
  summary: 'Create a survey design',
  description: `Colours as \`#RRGGBB\`, \`logoUrl\` an https URL. A workspace has at most 50 designs besides the default. ${IDEMPOTENT_NOTE}`,
  permissions: WRITE,
  idempotent: true,
  request: { body: createDesignBody },
  response: { status: 200, body: okBody({ design: surveyDesign }) },
  errors: { 409: { design_limit: true } },
  table: ['BatchGetItem', 'UpdateItem', 'PutItem'],
});

export const updateSurveyDesign = route({
  operationId: 'updateSurveyDesign',
  method: 'PATCH',
  path: '/surveys/designs/{designId}',
  summary: 'Change a survey design',
  description: 'Any of `name`, `primaryColor`, `backgroundColor`, `logoUrl`, `font`; `null` clears an optional one.',
  permissions: WRITE,
  request: { params: designIdParams, body: updateDesignBody },
  response: { status: 200, body: okBody({ design: surveyDesign }) },
  errors: { 404: { not_found: 'no design with this id in this workspace' } },
  table: ['UpdateItem'],
});

export const validateSurveyDefinition = route({
  operationId: 'validateSurveyDefinition',
  method: 'POST',
  path: '/surveys/validate',
  summary: 'Validate a survey definition (dry run)',
  description: `Nothing is stored and no survey is needed. ${DEFINITION_NOTE}`,
  permissions: READ,
  request: { body: validateBody },
  response: { status: 200, body: okBody({ issues: z.array(issue) }) },
  errors: { 413: DEFINITION_413 },
});

export const listAudienceAttributes = route({
  operationId: 'listAudienceAttributes',
  method: 'GET',
  path: '/surveys/audience-attributes',
  summary: 'The audience attributes targeting rules may use',
  description:
    "Each attribute's `key`, `type` (string, number, date, boolean) and, for strings, the `values` it takes. " +
    'Set by the operator (`cxctl audience set <slug> --file f.json`). `targetingRules.filters` may only use these.',
  permissions: READ,
  response: { status: 200, body: okBody({ attributes: audienceAttributes }) },
  table: ['GetItem'],
});

export const getSurvey = route({
  operationId: 'getSurvey',
  method: 'GET',
  path: '/surveys/{id}',
  summary: 'Read a survey',
  description:
    "The survey (archived ones too), its versions newest first and the workspace's designs. No respondent answers. " +
    'Versions are listed without their definitions so the read stays small: GET a version for its `definition`, `issues` and `revision`.',
  permissions: READ,
  request: { params: surveyIdParams },
  response: {
    status: 200,
    body: okBody({ survey, versions: z.array(versionSummary), designs: z.array(surveyDesign) }),
    headers: SURVEY_ETAG,
  },
  errors: { 404: SURVEY_404 },
  table: ['BatchGetItem'],
});

export const updateSurvey = route({
  operationId: 'updateSurvey',
  method: 'PATCH',
  path: '/surveys/{id}',
  summary: "Change a survey's settings",
  description:
    'Any of `name`, `nameAr`, `themeLogoUrl` (https), `themePrimaryColor` (`#RRGGBB`), `designId` (a design of this workspace) and ' +
    '`targetingRules` (`{filters}`: a condition over the audience attributes of GET /surveys/audience-attributes, with `attribute` ' +
    'in place of `question`); `null` clears one. Never the status. Targeting that names an unknown attribute, uses an operator ' +
    'that does not fit its type, a malformed value, contradicts itself, nests beyond 5 levels or has more than 50 conditions is ' +
    '400 `invalid_body` listing every problem: a rule never silently targets no one.',
  permissions: WRITE,
  request: { params: surveyIdParams, body: updateSurveyBody, headers: OPTIONAL_IF_MATCH },
  response: { status: 200, body: surveyResponse, headers: SURVEY_ETAG },
  errors: {
    400: { invalid_body: 'also a `designId` that is no design of this workspace, or targeting problems (each in `issues`)' },
    404: SURVEY_404,
    409: { survey_archived: ARCHIVED_409 },
  },
  table: ['BatchGetItem', 'UpdateItem'],
});

export const archiveSurvey = route({
  operationId: 'archiveSurvey',
  method: 'DELETE',
  path: '/surveys/{id}',
  summary: 'Archive a survey',
  description:
    'Archives the survey: it leaves the list, its versions are kept, and it becomes read-only (every write is 409 `survey_archived`).',
  permissions: ['surveys:delete'],
  request: { params: surveyIdParams, headers: OPTIONAL_IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: SURVEY_404, 409: { survey_archived: 'already archived' } },
  table: ['GetItem', 'UpdateItem'],
});

export const getSurveyVersion = route({
  operationId: 'getSurveyVersion',
  method: 'GET',
  path: '/surveys/{id}/versions/{versionId}',
  summary: 'Read a survey version',
  description: 'The version with its definition and the issues found when it was last saved; `ETag` is its revision.',
  permissions: READ,
  request: { params: versionParams },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: { 404: VERSION_404 },
  table: ['GetItem'],
});

export const createSurveyVersion = route({
  operationId: 'createSurveyVersion',
  method: 'POST',
  path: '/surveys/{id}/versions',
  summary: 'Start a new draft version',
  description: `A new draft copied from \`fromVersionId\`, else from the published version, else from the latest. A survey keeps at most 50 versions. ${IDEMPOTENT_NOTE}`,
  permissions: WRITE,
  idempotent: true,
  request: { params: surveyIdParams, body: createVersionBody },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: {
    400: { invalid_body: '`fromVersionId` names no version of this survey' },
    404: SURVEY_404,
    409: { survey_archived: ARCHIVED_409, version_limit: true, version_conflict: 'other versions were being created at once' },
  },
  table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
});

export const replaceSurveyVersion = route({
  operationId: 'replaceSurveyVersion',
  method: 'PUT',
  path: '/surveys/{id}/versions/{versionId}',
  summary: "Save a draft's definition",
  description: `Replaces a draft's definition and returns it with fresh \`issues\`; drafts save even with errors. ${DEFINITION_NOTE}`,
  permissions: WRITE,
  request: { params: versionParams, body: replaceVersionBody, headers: REQUIRED_IF_MATCH },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: {
    400: { invalid_body: "also `definition.languages` without the survey's language" },
    404: VERSION_404,
    409: { version_locked: LOCKED_409, survey_archived: ARCHIVED_409 },
    413: DEFINITION_413,
  },
  table: ['UpdateItem'],
});

export const deleteSurveyVersion = route({
  operationId: 'deleteSurveyVersion',
  method: 'DELETE',
  path: '/surveys/{id}/versions/{versionId}',
  summary: 'Discard a draft version',
  description: 'Deletes a draft for good. Published and superseded versions are kept forever.',
  permissions: WRITE,
  request: { params: versionParams },
  response: { status: 200, body: okOnly },
  errors: { 404: VERSION_404, 409: { version_locked: LOCKED_409, survey_archived: ARCHIVED_409 } },
  table: ['DeleteItem', 'UpdateItem'],
});

export const simulateSurveyVersion = route({
  operationId: 'simulateSurveyVersion',
  method: 'POST',
  path: '/surveys/{id}/versions/{versionId}/simulate',
  summary: "Walk a version's logic for given answers",
  description:
    'Returns `path` (questions shown, in order), `skipped` (jumped over or hidden), `options` (what each shown choice question offers after ' +
    'filtering), `ending`, and `problems` with the answers (to a question never shown, an option not offered, a required question left ' +
    'unanswered, a value of the wrong type; with `language`, shown text missing in it). A required question left unanswered stops the ' +
    'walk there (`ending` null). Values: openText a string; singleChoice an option id; multipleChoice and ranking arrays of option ids; ' +
    'nps, rating, csat, ces integers; date `YYYY-MM-DD`; matrix `{rowId: columnId}`; consent a boolean. Nothing is stored.',
  permissions: READ,
  request: { params: versionParams, body: simulateBody },
  response: { status: 200, body: okBody({ run: simulationRun }) },
  errors: { 404: VERSION_404 },
  table: ['GetItem'],
});

export const publishSurvey = route({
  operationId: 'publishSurvey',
  method: 'POST',
  path: '/surveys/{id}/publish',
  summary: 'Publish a version',
  description:
    'Publishes `versionId` (a draft, or the published version again to reopen a closed survey); the version published before is ' +
    'superseded. A version with errors is refused. Against the version now published, breaking changes (a question removed or ' +
    'retyped, an option, row or column removed or re-ided, a scale changed) need `acknowledgeBreakingChanges: true`; without it ' +
    'the answer is 409 `breaking_changes` with `changes:[{kind, questionId, optionId?, detail}]` and nothing changes.',
  permissions: WRITE,
  request: { params: surveyIdParams, body: publishBody },
  response: { status: 200, body: okBody({ survey, version: surveyVersion }), headers: SURVEY_ETAG },
  errors: {
    400: { invalid_definition: 'the version has errors, listed in `issues` (each with `severity`, `code`, `message`, `path`)' },
    404: VERSION_404,
    409: {
      breaking_changes:
        'listed in `changes` (with `journey_metric_unbound` for each published journey version whose metric follows a question removed ' +
        'or retyped); send `acknowledgeBreakingChanges: true` to publish anyway',
      version_locked: 'the version is superseded',
      survey_archived: ARCHIVED_409,
      version_conflict: 'the survey or version changed while publishing',
    },
  },
  errorMembers: {
    400: {
      issues: z.array(z.union([issue, validationIssue])).register(z.globalRegistry, {
        description: 'With `invalid_definition`: the errors found; with `invalid_body`: what breaks the schema (`path` and `message` only)',
      }),
    },
    409: {
      changes: z.array(breakingChange).register(z.globalRegistry, {
        description: 'With `breaking_changes`: what publishing would break for the answers collected so far',
      }),
    },
  },
  // Query: the journey metric bindings of the survey, only when there are breaking changes (lib/journeys/survey-bindings.ts).
  table: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem'],
});

export const closeSurvey = route({
  operationId: 'closeSurvey',
  method: 'POST',
  path: '/surveys/{id}/close',
  summary: 'Close a published survey',
  description: 'Published → closed: it stops collecting. Publishing (the same version or a new one) reopens it.',
  permissions: WRITE,
  request: { params: surveyIdParams },
  response: { status: 200, body: surveyResponse, headers: SURVEY_ETAG },
  errors: {
    400: { invalid_state: 'the survey is not published' },
    404: SURVEY_404,
    409: { survey_archived: ARCHIVED_409, version_conflict: 'the survey changed while closing' },
  },
  table: ['GetItem', 'UpdateItem'],
});
