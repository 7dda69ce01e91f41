/**
 * Routes of the Journeys area (module `journeys`): macro and micro journeys, their named versions
 * with typed content, diagnostics, publish and diff.
 */

import * as z from 'zod/mini';
import { etagHeader, optionalIfMatch, requiredIfMatch, routesOf } from '../platform/route.ts';
import { okOnly } from '../platform/schemas.ts';
import {
  contentBody,
  diagnostic,
  diagnosticsResponse,
  diffQuery,
  diffResponse,
  journeyCreateBody,
  journeyCreatedResponse,
  journeyIdParams,
  journeyListQuery,
  journeyListResponse,
  journeyPatchBody,
  journeyResponse,
  mapQuery,
  mapSvgResponse,
  metricsQuery,
  metricsResponse,
  microJourneyCreateBody,
  publishResponse,
  versionCreateBody,
  versionIdParams,
  versionListQuery,
  versionListResponse,
  versionPatchBody,
  versionResponse,
} from './schemas.ts';

const route = routesOf({ tag: 'Journeys', module: 'journeys' });

const JOURNEY_ETAG = etagHeader('The journey\'s `version` as a strong ETag, e.g. `"3"`');
const VERSION_ETAG = etagHeader('The version\'s `revision` as a strong ETag, e.g. `"3"`: send it back in `If-Match`');

const OPTIONAL_IF_MATCH = (what: string) =>
  optionalIfMatch(
    `Optional: the ETag of the ${what} you read (or \`*\`). If it has moved on the request fails with 409 \`version_conflict\` and changes nothing.`,
  );
const REQUIRED_IF_MATCH = requiredIfMatch(
  'Required: the version\'s ETag (its `revision`, e.g. `"3"`) as you read it. Without it: 400 `if_match_required`; ' +
    'if the version was saved since: 409 `version_conflict` with the current `ETag`, and nothing changes.',
  // The documented order (ORDER): the version's 404 and state answer before a missing If-Match.
  { missingAfterRead: true },
);

const JOURNEY_404 = "no journey with this id in this workspace (another workspace's journeys are never visible)";
const VERSION_404 = 'no such journey, or no such version of it, in this workspace';
const ARCHIVED_409 = 'the journey is archived, so it no longer changes';
const LOCKED_409 = 'the version is published, and published versions never change';
const TOO_LARGE_413 =
  'the content passed 1,048,576 bytes of UTF-8 JSON, or the version would not fit one DynamoDB item (400 KB: the ' +
  'compressed content, each distinct micro-journey pair target, and room for diagnostics); nothing is written';
const CONTENT_400 =
  'lists every problem of the content in itself (types, ids of 1-64 `[A-Za-z0-9_-]`, unknown row types or channels, ' +
  'cell keys not `<rowId>:<stageId>`, scores outside -2..2, lengths); what is well-formed but inconsistent is saved and reported in `diagnostics`';
const ORDER =
  'Checks run in this order: body size and shape (413, 400), not found (404), archived (409 `journey_archived`), published (409 `version_locked`), ' +
  'missing If-Match (400), stale If-Match (409 `version_conflict`).';
const RANGE_400 = 'a date not `YYYY-MM-DD`, `from` after `to`, or more than 732 days between them';
const TITLE_400 = 'no title, `title` together with `titleEn`, or a title over 200 characters';

export const listJourneys = route({
  operationId: 'listJourneys',
  method: 'GET',
  path: '/journeys',
  summary: 'List journeys',
  description:
    'Metadata only, newest first by creation; archived journeys are left out. `kind` keeps macro or micro journeys only; ' +
    '`pagination.total` counts what the filter selects. One Query (more for deep offsets).',
  permissions: ['journeys:read'],
  request: { query: journeyListQuery },
  response: { status: 200, body: journeyListResponse },
  // GetItem: a cursor page reads the journey counter beside its Query.
  table: ['GetItem', 'Query'],
});

export const createJourney = route({
  operationId: 'createJourney',
  method: 'POST',
  path: '/journeys',
  summary: 'Create a macro journey',
  description:
    'Creates a macro journey and its first draft version (`Draft 1`, empty content). `title` is an alias of `titleEn`. ' +
    'Send an `Idempotency-Key` to retry safely.',
  permissions: ['journeys:write'],
  idempotent: true,
  request: { body: journeyCreateBody },
  response: { status: 200, body: journeyCreatedResponse, headers: VERSION_ETAG },
  errors: { 400: { invalid_body: TITLE_400 } },
  table: ['BatchGetItem', 'PutItem', 'UpdateItem'],
});

export const validateJourneyContent = route({
  operationId: 'validateJourneyContent',
  method: 'POST',
  path: '/journeys/validate',
  summary: 'Diagnose content without saving it',
  description:
    'A dry run: the diagnostics `content` would get if saved (references to other journeys and records are read), and nothing is stored. ' +
    'Without a journey, cycles through the journey itself cannot be seen; cycles further down are.',
  permissions: ['journeys:read'],
  request: { body: contentBody },
  response: { status: 200, body: diagnosticsResponse },
  errors: { 400: { invalid_body: CONTENT_400 }, 413: { content_too_large: TOO_LARGE_413 } },
  // GetItem: the survey versions bound metric cells name (lib/surveys/question-lookup.ts).
  table: ['BatchGetItem', 'GetItem'],
});

export const getJourney = route({
  operationId: 'getJourney',
  method: 'GET',
  path: '/journeys/{journeyId}',
  summary: 'Read a journey',
  description: "The journey's metadata, archived or not (`archivedAt`).",
  permissions: ['journeys:read'],
  request: { params: journeyIdParams },
  response: { status: 200, body: journeyResponse, headers: JOURNEY_ETAG },
  errors: { 404: { not_found: JOURNEY_404 } },
  table: ['GetItem'],
});

export const updateJourney = route({
  operationId: 'updateJourney',
  method: 'PATCH',
  path: '/journeys/{journeyId}',
  summary: 'Rename a journey',
  description:
    '`titleEn`, `titleAr` (or `title`, an alias of `titleEn`); `null` clears one, but a journey keeps at least one title. ' +
    'One conditional write, no read before it. An empty patch (`{}`) changes nothing: one read, answered 200 with the journey as ' +
    'it is (after the same archive and If-Match checks).',
  permissions: ['journeys:write'],
  request: { params: journeyIdParams, body: journeyPatchBody, headers: OPTIONAL_IF_MATCH('journey') },
  response: { status: 200, body: journeyResponse, headers: JOURNEY_ETAG },
  errors: {
    400: { invalid_body: `${TITLE_400}, or a change that would leave no title` },
    404: { not_found: JOURNEY_404 },
    409: { journey_archived: ARCHIVED_409 },
  },
  // GetItem: an empty patch writes nothing and answers the journey as it is.
  table: ['UpdateItem', 'GetItem'],
});

export const archiveJourney = route({
  operationId: 'archiveJourney',
  method: 'DELETE',
  path: '/journeys/{journeyId}',
  summary: 'Archive a journey',
  description:
    'Archives: the journey leaves the list, its versions are kept and stay readable (with `archivedAt`), and every later write is a 409 ' +
    '`journey_archived`. Its published metrics no longer hold back the publish of a survey they follow (`journey_metric_unbound`). ' +
    'Refused while the published version of another unarchived journey pairs it.',
  permissions: ['journeys:delete'],
  request: { params: journeyIdParams, headers: OPTIONAL_IF_MATCH('journey') },
  response: { status: 200, body: okOnly },
  errors: {
    404: { not_found: JOURNEY_404 },
    409: { journey_archived: 'already archived', journey_in_use: "another journey's published version pairs it" },
  },
  // DeleteItem: the survey publish gate's binding items of the surveys it followed (store/metric-follows.ts), in the transaction.
  table: ['GetItem', 'UpdateItem', 'DeleteItem'],
});

export const createMicroJourney = route({
  operationId: 'createMicroJourney',
  method: 'POST',
  path: '/journeys/{journeyId}/micro-journeys',
  summary: 'Create a micro journey zooming into a journey',
  description:
    'A micro journey (with its first draft) whose `parentJourneyId` is this journey; `stageId` says which stage it zooms into (informational). ' +
    "Micro journeys may have micro journeys of their own. Pair it to a stage through the content's `microJourneyPairs`.",
  permissions: ['journeys:write'],
  idempotent: true,
  request: { params: journeyIdParams, body: microJourneyCreateBody },
  response: { status: 200, body: journeyCreatedResponse, headers: VERSION_ETAG },
  errors: { 400: { invalid_body: TITLE_400 }, 404: { not_found: JOURNEY_404 }, 409: { journey_archived: ARCHIVED_409 } },
  table: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'],
});

export const listJourneyVersions = route({
  operationId: 'listJourneyVersions',
  method: 'GET',
  path: '/journeys/{journeyId}/versions',
  summary: "List a journey's versions with their content",
  description:
    'Every version with complete content, drafts included, newest first by creation. A page also ends early when the next version would take ' +
    'the response past 5 MB; `pagination.hasMore` then says more follow (continue at `offset + versions.length`).',
  permissions: ['journeys:read'],
  request: { params: journeyIdParams, query: versionListQuery },
  response: { status: 200, body: versionListResponse },
  errors: { 404: { not_found: JOURNEY_404 } },
  // GetItem: a cursor page reads the journey (404, total) beside its Query.
  table: ['GetItem', 'Query'],
});

export const createJourneyVersion = route({
  operationId: 'createJourneyVersion',
  method: 'POST',
  path: '/journeys/{journeyId}/versions',
  summary: 'Branch a new draft from any version',
  description:
    'A new draft copied from `fromVersionId` (content and diagnostics), with `parentVersionId` and `sourceRevision` recording where it came from. ' +
    '`label` defaults to `Draft <n>`. Drafts are as many as you like. Send an `Idempotency-Key` to retry safely.',
  permissions: ['journeys:write'],
  idempotent: true,
  request: { params: journeyIdParams, body: versionCreateBody },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: { 404: { not_found: `${VERSION_404} (\`fromVersionId\` included)` }, 409: { journey_archived: ARCHIVED_409 } },
  table: ['GetItem', 'BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'],
});

export const getJourneyVersion = route({
  operationId: 'getJourneyVersion',
  method: 'GET',
  path: '/journeys/{journeyId}/versions/{versionId}',
  summary: 'Read a version',
  description: 'The version with its content and the diagnostics of its last save (or publish).',
  permissions: ['journeys:read'],
  request: { params: versionIdParams },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: { 404: { not_found: VERSION_404 } },
  table: ['GetItem'],
});

export const updateJourneyVersion = route({
  operationId: 'updateJourneyVersion',
  method: 'PATCH',
  path: '/journeys/{journeyId}/versions/{versionId}',
  summary: 'Relabel a draft',
  description: `\`label\` only; \`revision\` does not change. ${ORDER}`,
  permissions: ['journeys:write'],
  request: { params: versionIdParams, body: versionPatchBody, headers: OPTIONAL_IF_MATCH('version') },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: { 404: { not_found: VERSION_404 }, 409: { journey_archived: ARCHIVED_409, version_locked: LOCKED_409 } },
  table: ['BatchGetItem', 'ConditionCheckItem', 'UpdateItem'],
});

export const saveJourneyVersionContent = route({
  operationId: 'saveJourneyVersionContent',
  method: 'PUT',
  path: '/journeys/{journeyId}/versions/{versionId}/content',
  summary: "Save a draft's content",
  description:
    'Replaces the content (schema 1), bumps `revision` and returns fresh `diagnostics` (errors do not block a save, only publish). ' +
    `Of two saves sent with the same If-Match exactly one wins. ${ORDER}`,
  permissions: ['journeys:write'],
  request: { params: versionIdParams, body: contentBody, headers: REQUIRED_IF_MATCH },
  response: { status: 200, body: versionResponse, headers: VERSION_ETAG },
  errors: {
    400: { invalid_body: CONTENT_400 },
    404: { not_found: VERSION_404 },
    409: { journey_archived: ARCHIVED_409, version_locked: LOCKED_409 },
    413: { content_too_large: TOO_LARGE_413 },
  },
  // GetItem: the survey versions bound metric cells name (lib/surveys/question-lookup.ts).
  table: ['BatchGetItem', 'GetItem', 'ConditionCheckItem', 'UpdateItem'],
});

export const publishJourneyVersion = route({
  operationId: 'publishJourneyVersion',
  method: 'POST',
  path: '/journeys/{journeyId}/versions/{versionId}/publish',
  summary: 'Publish a version',
  description:
    'Recomputes the diagnostics (references may have changed); with errors it is refused (400 `invalid_content`, with them in `diagnostics`). ' +
    "Otherwise the version gets `publishedAt` and the journey's `publishedVersionId` points to it, in one transaction. " +
    'Publishing an already published version changes nothing (200).',
  permissions: ['journeys:write'],
  request: { params: versionIdParams, headers: REQUIRED_IF_MATCH },
  response: { status: 200, body: publishResponse, headers: VERSION_ETAG },
  errors: {
    400: { invalid_content: 'error diagnostics, every one listed in `diagnostics`' },
    404: { not_found: VERSION_404 },
    409: { journey_archived: ARCHIVED_409, references_changed: 'a paired journey was archived meanwhile' },
  },
  errorMembers: {
    400: {
      diagnostics: z.array(diagnostic).register(z.globalRegistry, {
        description: 'With `invalid_content`: every diagnostic of the version, errors and warnings, as validate returns them',
      }),
    },
  },
  // GetItem: the survey versions bound metric cells name (lib/surveys/question-lookup.ts); PutItem and
  // DeleteItem: the survey publish gate's binding items (store/metric-follows.ts), in the transaction.
  table: ['BatchGetItem', 'GetItem', 'PutItem', 'DeleteItem', 'UpdateItem'],
});

export const deleteJourneyVersion = route({
  operationId: 'deleteJourneyVersion',
  method: 'DELETE',
  path: '/journeys/{journeyId}/versions/{versionId}',
  summary: 'Discard a draft',
  description: `Deletes a draft for good. A journey keeps at least one version. ${ORDER}`,
  permissions: ['journeys:write'],
  request: { params: versionIdParams, headers: OPTIONAL_IF_MATCH('version') },
  response: { status: 200, body: okOnly },
  errors: {
    404: { not_found: VERSION_404 },
    409: { journey_archived: ARCHIVED_409, version_locked: LOCKED_409, last_version: "it is the journey's only version" },
  },
  table: ['BatchGetItem', 'DeleteItem', 'UpdateItem'],
});

export const diffJourneyVersions = route({
  operationId: 'diffJourneyVersions',
  method: 'GET',
  path: '/journeys/{journeyId}/versions/{versionId}/diff',
  summary: 'What changed between two versions',
  description:
    'From `against` to this version, as lists of ids: stages and rows added, removed, renamed (a title changed), moved (their order relative ' +
    'to the others changed) and, for rows, retyped; cells (keys) added, removed, changed; pairs (`stageId/journeyId`) added, removed, changed ' +
    '(the pinned version). A version against itself is all empty. One BatchGetItem.',
  permissions: ['journeys:read'],
  request: { params: versionIdParams, query: diffQuery },
  response: { status: 200, body: diffResponse },
  errors: { 404: { not_found: `${VERSION_404} (\`against\` included)` } },
  table: ['BatchGetItem'],
});

export const getJourneyMapPicture = route({
  operationId: 'getJourneyMapPicture',
  method: 'GET',
  path: '/journeys/{journeyId}/versions/{versionId}/map.svg',
  summary: 'The map as a picture (SVG)',
  description:
    'The version drawn as SVG: stages as columns, rows as lanes with their titles, cell texts, the emotion row as a curve, channels and items, ' +
    'each metric cell as a badge with its value and target (green when met, red when missed), the label and publish date. ' +
    '`locale=ar` mirrors the columns right to left and uses the Arabic texts, falling back to English. Large maps wrap rather than scale: ' +
    'columns keep a fixed width and 12px text, long texts are cut after six lines with an ellipsis, and the picture grows (40 stages: about ' +
    '8,200px wide). Bound metric cells show their value over `from`…`to` (default the last 90 days), as GET …/metrics computes it. ' +
    'Every text is escaped, and the response forbids scripts and loads (`Content-Security-Policy`). ' +
    'One GetItem, plus one Query per distinct bound survey question.',
  permissions: ['journeys:read'],
  request: { params: versionIdParams, query: mapQuery },
  response: { status: 200, body: mapSvgResponse, contentType: 'image/svg+xml' },
  errors: { 400: { invalid_query: `${RANGE_400}, or a locale other than \`en\` or \`ar\`` }, 404: { not_found: VERSION_404 } },
  // Query: the day buckets of each bound survey question (lib/surveys/summary/question-scores.ts).
  table: ['GetItem', 'Query'],
});

export const getJourneyVersionMetrics = route({
  operationId: 'getJourneyVersionMetrics',
  method: 'GET',
  path: '/journeys/{journeyId}/versions/{versionId}/metrics',
  summary: "The version's metrics, computed from survey responses",
  description:
    'Every metric cell bound to a survey question (content `source`), with its `measure` over the days `from`…`to` (UTC, inclusive; default ' +
    'the last 90 days, at most 732): `value` (NPS −100…100; CSAT and top box in %; CES and mean as the mean answer), `n` answers, ' +
    '`marginOfError95`, `target` and `meetsTarget`, and a `series` per `interval` (day, week from Monday, or month; default week) with a point ' +
    "for every period, empty ones `value: null, n: 0`. Days are those the responses were started on. Values come from the surveys' " +
    'per-day score buckets, never from the responses: one GetItem of the version and one Query per distinct bound survey question, sent at once.',
  permissions: ['journeys:read'],
  request: { params: versionIdParams, query: metricsQuery },
  response: { status: 200, body: metricsResponse },
  errors: {
    400: { invalid_query: `${RANGE_400}, or an interval other than \`day\`, \`week\` or \`month\`` },
    404: { not_found: VERSION_404 },
  },
  // Query: the day buckets of each bound survey question (lib/surveys/summary/question-scores.ts).
  table: ['GetItem', 'Query'],
});
