/**
 * Routes of the SOPs area: standard operating procedures, their review workflow
 * (draft → under_review → published, spec part 3) and the SOP directory.
 */
import * as z from 'zod/mini';
import { okBody, routesOf } from '../platform/route.ts';
import { okOnly } from '../platform/schemas.ts';
import { directoryPerson, directoryTeam, SOP_LIMITS, sendBackBody, sopComment, sopIdParams, sopRecord, sopWriteBody } from './schemas.ts';

const route = routesOf({ tag: 'SOPs', module: 'sops' });

const sopResponse = okBody({ sop: sopRecord });

const VISIBILITY =
  'Keys holding sops:write or sops:approve see SOPs in every state; a key holding sops:read alone sees only published SOPs.';

const SOP_404 = { not_found: 'no SOP with this id in this workspace' };
const WRITE_BODY_RULES =
  `Body rules: at least one of titleEn/titleAr (each at most ${SOP_LIMITS.title} characters); type is one of inquiry, ` +
  'complaint, request, incident, general; escalationLevel1 is required unless type is inquiry, and a level needs the ' +
  'one before it. departmentId must be an active team id from GET /sops/directory. Each escalation level is an active ' +
  'person or team id from the directory, or a legacy reference `user:<id>` / `role:<name>` stored as given; an unknown ' +
  `or inactive directory id is 400 invalid_body. Descriptions are at most ${SOP_LIMITS.description} characters; at most ` +
  `${SOP_LIMITS.steps} steps, each with titleEn, titleAr and/or body (titles ${SOP_LIMITS.stepTitle}, body ` +
  `${SOP_LIMITS.stepBody} characters). Text fields must not be blank; omitted or null optional fields are unset. ` +
  'Unknown fields are 400 invalid_body.';

export const listSops = route({
  operationId: 'listSops',
  method: 'GET',
  path: '/sops',
  summary: 'List SOPs',
  description:
    `Every SOP of the workspace, oldest first (not paginated). ${VISIBILITY} ` +
    'Reads an index that is updated within moments of a write, so a change may take a moment to appear here; ' +
    'GET /sops/{id} always shows the latest state.',
  permissions: ['sops:read'],
  response: { status: 200, body: okBody({ sops: z.array(sopRecord) }) },
  table: ['Query'],
});

export const createSop = route({
  operationId: 'createSop',
  method: 'POST',
  path: '/sops',
  summary: 'Create an SOP (as a draft)',
  description:
    'Creates the SOP in state draft and assigns its department serial: the next integer of its department ' +
    '(or of the SOPs without a department), never shared by concurrent creates and never reused, even after a ' +
    `delete. ${WRITE_BODY_RULES}`,
  permissions: ['sops:write'],
  request: { body: sopWriteBody },
  response: { status: 200, body: sopResponse },
  table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
});

export const getSopDirectory = route({
  operationId: 'getSopDirectory',
  method: 'GET',
  path: '/sops/directory',
  summary: 'The SOP directory: people and teams to reference',
  description:
    'The employees (people) and departments (teams) an SOP can reference, synchronised from the company profile ' +
    'by `cxctl directory import`. Ids are stable across imports. Entries no longer in the source stay listed with ' +
    'active false (SOPs that reference them still resolve) but cannot be newly referenced. Each list is sorted by name.',
  permissions: ['sops:read'],
  response: {
    status: 200,
    body: okBody({ people: z.array(directoryPerson), teams: z.array(directoryTeam) }),
  },
  table: ['Query'],
});

export const getSop = route({
  operationId: 'getSop',
  method: 'GET',
  path: '/sops/{id}',
  summary: 'Read an SOP and its review comments',
  description:
    `${VISIBILITY} For a read-only key a draft or an SOP under review is 404, and comments is always empty. ` +
    'Comments (one per send-back) are oldest first.',
  permissions: ['sops:read'],
  request: { params: sopIdParams },
  response: { status: 200, body: okBody({ sop: sopRecord, comments: z.array(sopComment) }) },
  errors: { 404: { not_found: 'no SOP with this id in this workspace, or (to a read-only key) one that is not published' } },
  table: ['GetItem', 'Query'],
});

export const replaceSop = route({
  operationId: 'replaceSop',
  method: 'PUT',
  path: '/sops/{id}',
  summary: 'Replace an SOP (full replacement)',
  description:
    'Replaces every write field (omitted optional fields are cleared). A draft stays a draft; a published SOP goes ' +
    'back to draft (publishedAt, approvedBy cleared; read-only keys no longer see it until it is approved again). ' +
    'An SOP under review cannot be edited: 400 invalid_state, nothing changes. Moving an SOP to another department ' +
    `gives it the next serial of that department; its old serial is not reused. ${WRITE_BODY_RULES}`,
  permissions: ['sops:write'],
  request: { params: sopIdParams, body: sopWriteBody },
  response: { status: 200, body: sopResponse },
  errors: { 400: { invalid_state: 'the SOP is under review: approve or send it back first' }, 404: SOP_404 },
  table: ['GetItem', 'BatchGetItem', 'UpdateItem'],
});

export const deleteSop = route({
  operationId: 'deleteSop',
  method: 'DELETE',
  path: '/sops/{id}',
  summary: 'Delete an SOP and its review comments',
  description:
    'Deletes the SOP, in any state, together with its review comments in one transaction. Needs sops:delete, ' +
    'which sops:write does not imply. Its serial is never handed out again.',
  permissions: ['sops:delete'],
  request: { params: sopIdParams },
  response: { status: 200, body: okOnly },
  errors: { 404: SOP_404 },
  table: ['Query', 'DeleteItem'],
});

export const submitSop = route({
  operationId: 'submitSop',
  method: 'POST',
  path: '/sops/{id}/submit',
  summary: 'Submit a draft for review',
  description: 'draft → under_review; sets submittedAt. From any other state: 400 invalid_state. Takes no body.',
  permissions: ['sops:write'],
  request: { params: sopIdParams },
  response: { status: 200, body: sopResponse },
  errors: { 400: { invalid_state: 'only a draft is submitted' }, 404: SOP_404 },
  table: ['UpdateItem'],
});

export const approveSop = route({
  operationId: 'approveSop',
  method: 'POST',
  path: '/sops/{id}/approve',
  summary: 'Approve an SOP under review (publish it)',
  description:
    'under_review → published; records publishedAt and approvedBy (the approving key id). Needs sops:approve, ' +
    'which sops:write does not imply. From any other state: 400 invalid_state. Of two racing approvals exactly one ' +
    'succeeds. Takes no body.',
  permissions: ['sops:approve'],
  request: { params: sopIdParams },
  response: { status: 200, body: sopResponse },
  errors: { 400: { invalid_state: 'only an SOP under review is approved' }, 404: SOP_404 },
  table: ['UpdateItem'],
});

export const sendBackSop = route({
  operationId: 'sendBackSop',
  method: 'POST',
  path: '/sops/{id}/send-back',
  summary: 'Send an SOP under review back to draft, with feedback',
  description:
    'under_review → draft; the feedback is kept as a review comment (kind send_back) in the same transaction. ' +
    'Needs sops:approve: sending back is the reviewer’s other verdict. From any other state: 400 invalid_state.',
  permissions: ['sops:approve'],
  request: { params: sopIdParams, body: sendBackBody },
  response: { status: 200, body: sopResponse },
  errors: { 400: { invalid_state: 'only an SOP under review is sent back' }, 404: SOP_404 },
  table: ['GetItem', 'PutItem', 'UpdateItem'],
});
