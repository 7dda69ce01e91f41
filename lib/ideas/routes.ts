/** Routes of the Ideas area (module `ideas`): CRUD on ideas and the workspace's idea labels. */
import * as z from 'zod/mini';
import { etagHeader, okBody, optionalIfMatch, routesOf } from '../platform/route.ts';
import { okOnly, pageQuery, pagination } from '../platform/schemas.ts';
import { idea, ideaIdParams, ideaLabels, ideaPatch, ideaWrite } from './schemas.ts';
import { similarIdea, similarIdeasQuery } from './similar/schemas.ts';

const route = routesOf({ tag: 'Ideas', module: 'ideas' });

const ideaResponse = okBody({ data: idea });

const ETAG_HEADER = etagHeader('The idea\'s version as a strong ETag, e.g. `"3"`: send it back in `If-Match`');

const IF_MATCH = optionalIfMatch(
  'Optional optimistic concurrency: the ETag (e.g. `"3"`) of the version you read, or several comma-separated, or `*`. ' +
    'If the idea is at another version the request fails with 409 `version_conflict` and changes nothing. ' +
    'Without it the write proceeds whatever the version (last writer wins).',
);

const LABEL_NOTE =
  "`status` and `module` must each be one of the workspace's configured idea labels (GET /ideas/labels), else 400 `invalid_body`.";
const PRIVACY_NOTE = 'Submitter data (`submitter`) and `customerContext` are stored for the portal but never returned by any operation.';

const DUPLICATES_NOTE = '`possibleDuplicates`: up to three like ideas (GET /ideas/similar, score over 0.3).';

const NOT_FOUND_404 = { not_found: 'no idea with this id in this workspace (ideas of other workspaces are never visible)' };
const LABEL_400 = { invalid_body: 'also a `status` or `module` that is not one of the configured idea labels' };

export const listIdeas = route({
  operationId: 'listIdeas',
  method: 'GET',
  path: '/ideas',
  summary: 'List ideas',
  description:
    'Newest first, in a stable order (by creation). `pagination.total` counts every idea of the workspace; ' +
    '`hasMore` says whether a page follows this one. An `offset` past the end returns an empty page (still 200, with the total). ' +
    'Reaching an offset reads the ideas before it, so very deep offsets are slower; an offset past the end costs one read at most.',
  permissions: ['ideas:read'],
  request: { query: pageQuery },
  response: { status: 200, body: okBody({ data: z.array(idea), pagination }) },
  // GetItem: a cursor page reads the idea counter beside its Query.
  table: ['GetItem', 'Query'],
});

export const createIdea = route({
  operationId: 'createIdea',
  method: 'POST',
  path: '/ideas',
  summary: 'Submit an idea',
  description:
    `Creates a private idea pending moderation, at version 1. ${LABEL_NOTE} ${PRIVACY_NOTE} ` +
    'Unknown fields are rejected (400 `invalid_body`). ' +
    'Send an `Idempotency-Key` to retry safely: within 24 hours the same key with the same body returns the first response ' +
    '(with `Idempotent-Replayed: true`) and creates nothing; with a different body it is a 409. Only successful creations are remembered. ' +
    `${DUPLICATES_NOTE}`,
  permissions: ['ideas:write'],
  idempotent: true,
  request: { body: ideaWrite },
  response: {
    status: 201,
    body: okBody({ data: idea, possibleDuplicates: z.optional(z.array(similarIdea)) }),
    location: '/ideas/{data.id}',
    description: 'Created (or, for a repeated Idempotency-Key, the first response again)',
    headers: ETAG_HEADER,
  },
  errors: { 400: LABEL_400 },
  // Query and BatchGetItem (of the ideas' public attributes) also find the possible duplicates.
  table: ['BatchGetItem', 'PutItem', 'UpdateItem', 'Query'],
});

export const findSimilarIdeas = route({
  operationId: 'findSimilarIdeas',
  method: 'GET',
  path: '/ideas/similar',
  summary: 'Ideas like a text (English and Arabic)',
  description:
    'Ideas closest to `q`, best first, each with a `score` (0–1) and the words of `q` it shares. Words are ' +
    'compared as knowledge-bank search compares them (English stemmed; Arabic normalised and lightly stemmed); rare words ' +
    'weigh more, titles more than descriptions.',
  permissions: ['ideas:read'],
  request: { query: similarIdeasQuery },
  response: { status: 200, body: okBody({ data: z.array(similarIdea) }) },
  errors: { 400: { invalid_query: '`q` missing, blank or over 1,000 characters; `limit` outside 1–25; an unknown parameter' } },
  // Query: the ideas created since the instance's last lookup (the whole workspace on its first);
  // BatchGetItem: the candidates as they are now.
  table: ['Query', 'BatchGetItem'],
});

export const getIdeaLabels = route({
  operationId: 'getIdeaLabels',
  method: 'GET',
  path: '/ideas/labels',
  summary: 'The idea statuses and modules this workspace accepts',
  description:
    'The values `status` and `module` of an idea may take, as configured by the workspace operator (`cxctl labels set`), in their configured order.',
  permissions: ['ideas:read'],
  response: { status: 200, body: okBody({ data: ideaLabels }) },
});

export const getIdea = route({
  operationId: 'getIdea',
  method: 'GET',
  path: '/ideas/{id}',
  summary: 'Read an idea',
  description: `The idea and, in \`ETag\`, its version. ${PRIVACY_NOTE}`,
  permissions: ['ideas:read'],
  request: { params: ideaIdParams },
  response: { status: 200, body: ideaResponse, headers: ETAG_HEADER },
  errors: { 404: NOT_FOUND_404 },
  table: ['GetItem'],
});

export const replaceIdea = route({
  operationId: 'replaceIdea',
  method: 'PUT',
  path: '/ideas/{id}',
  summary: "Replace an idea's writable fields",
  description:
    'Full replacement: `title` is required and every editable field left out (`titleAr`, `description`, `status`, `module`) is cleared. ' +
    '`submitter` and `customerContext` replace the stored ones when given and are kept when left out (they cannot be read back to resend). ' +
    `Moderation status, visibility and priority are set in the portal and never change here. ${LABEL_NOTE} Bumps the version.`,
  permissions: ['ideas:write'],
  request: { params: ideaIdParams, body: ideaWrite, headers: IF_MATCH },
  response: { status: 200, body: ideaResponse, headers: ETAG_HEADER },
  errors: { 400: LABEL_400, 404: NOT_FOUND_404 },
  table: ['UpdateItem'],
});

export const updateIdea = route({
  operationId: 'updateIdea',
  method: 'PATCH',
  path: '/ideas/{id}',
  summary: "Change some of an idea's fields",
  description:
    'Any subset of `title`, `titleAr`, `description`, `status` and `module`; `null` clears an optional field. ' +
    `Other fields are left as they are. ${LABEL_NOTE} Bumps the version; an empty object changes nothing and returns the idea as it is.`,
  permissions: ['ideas:write'],
  request: { params: ideaIdParams, body: ideaPatch, headers: IF_MATCH },
  response: { status: 200, body: ideaResponse, headers: ETAG_HEADER },
  errors: { 400: LABEL_400, 404: NOT_FOUND_404 },
  table: ['GetItem', 'UpdateItem'],
});

export const deleteIdea = route({
  operationId: 'deleteIdea',
  method: 'DELETE',
  path: '/ideas/{id}',
  summary: 'Delete an idea',
  description: 'Deletes the idea for good; it no longer counts in the list total. Deleting it again is a 404.',
  permissions: ['ideas:delete'],
  request: { params: ideaIdParams, headers: IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: NOT_FOUND_404 },
  table: ['DeleteItem', 'UpdateItem'],
});
