/** Routes of the Ideas area (module `ideas`): CRUD on ideas and the workspace's idea labels. */
import * as z from 'zod/mini';
import { etagHeader, okBody, optionalIfMatch, requiredIfMatch, routesOf } from '../platform/route.ts';
import { okOnly, pagination } from '../platform/schemas.ts';
import { comment, commentParams, commentPatch, commentWrite, listCommentsQuery } from './comment-schemas.ts';
import { idea, ideaIdParams, ideaLabels, ideaPatch, ideaWrite, listIdeasQuery, mergeBody } from './schemas.ts';
import { similarIdea, similarIdeasQuery } from './similar/schemas.ts';
import { listVotesQuery, vote, voteParams, voteWrite } from './vote-schemas.ts';

const route = routesOf({ tag: 'Ideas', module: 'ideas' });

const ideaResponse = okBody({ data: idea });

const ETAG_HEADER = etagHeader('The idea\'s version as a strong ETag, e.g. `"3"`: send it back in `If-Match`');

const IF_MATCH = optionalIfMatch(
  'Optional: the ETag you read (e.g. `"3"`), several comma-separated, or `*`; at another version, 409 `version_conflict` and ' +
    'nothing changes. Without it the write proceeds whatever the version (last writer wins).',
);

const LABEL_NOTE =
  "`status` and `module` must each be one of the workspace's configured idea labels (GET /ideas/labels), else 400 `invalid_body`.";
const PRIVACY_NOTE = 'Submitter data (`submitter`) and `customerContext` are stored for the portal but never returned by any operation.';

const DUPLICATES_NOTE = '`possibleDuplicates`: up to three like ideas (GET /ideas/similar, score over 0.3).';

const NOT_FOUND_404 = { not_found: 'no idea with this id in this workspace (ideas of other workspaces are never visible)' };
const MERGED_409 = { idea_merged: 'the idea was merged into another (`mergedInto`): write there instead' };
const LABEL_400 = { invalid_body: 'also a `status` or `module` that is not one of the configured idea labels' };

export const listIdeas = route({
  operationId: 'listIdeas',
  method: 'GET',
  path: '/ideas',
  summary: 'List ideas',
  description:
    'Newest first unless `sort` says otherwise, in a stable order. `pagination.total` counts the ideas listed: every idea of the ' +
    'workspace, less those merged into others unless `includeMerged=true`; An ' +
    '`offset` past the end returns an empty page (still 200, with the total); a deep one reads the ideas before it (a `cursor` does ' +
    'not). Orders by votes or trending follow votes about a second behind.',
  permissions: ['ideas:read'],
  request: { query: listIdeasQuery },
  response: { status: 200, body: okBody({ data: z.array(idea), pagination }) },
  // GetItem: the idea counter beside an index or cursor page; BatchGetItem: the ideas of an index page.
  table: ['GetItem', 'BatchGetItem', 'Query'],
});

export const createIdea = route({
  operationId: 'createIdea',
  method: 'POST',
  path: '/ideas',
  summary: 'Submit an idea',
  description:
    `Creates a private idea pending moderation, at version 1. ${LABEL_NOTE} ${PRIVACY_NOTE} ` +
    'Unknown fields are rejected (400 `invalid_body`). With an `Idempotency-Key` a retry within 24 hours answers the first ' +
    `response, its possible duplicates as first found included, and creates nothing. ${DUPLICATES_NOTE}`,
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
  // The submitter's reference, under which the erasure of a person finds their ideas (lib/ideas/people.ts).
  needs: ['keyed-hash'],
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
  // Query: its vote-count shards, beside the idea.
  table: ['GetItem', 'Query'],
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
  // PutItem and DeleteItem: a new submitter's references.
  table: ['Query', 'UpdateItem', 'PutItem', 'DeleteItem', 'GetItem'],
  needs: ['keyed-hash'],
});

export const updateIdea = route({
  operationId: 'updateIdea',
  method: 'PATCH',
  path: '/ideas/{id}',
  summary: "Change some of an idea's fields",
  description:
    'Any subset of `title`, `titleAr`, `description`, `status` (and its `statusMessage`) and `module`; `null` clears an optional field. ' +
    `Other fields are left as they are. ${LABEL_NOTE} Bumps the version; an empty object changes nothing and returns the idea as it is.`,
  permissions: ['ideas:write'],
  request: { params: ideaIdParams, body: ideaPatch, headers: IF_MATCH },
  response: { status: 200, body: ideaResponse, headers: ETAG_HEADER },
  errors: { 400: LABEL_400, 404: NOT_FOUND_404 },
  table: ['GetItem', 'Query', 'UpdateItem'],
});

export const deleteIdea = route({
  operationId: 'deleteIdea',
  method: 'DELETE',
  path: '/ideas/{id}',
  summary: 'Delete an idea',
  description:
    'Deletes the idea for good, with its votes and comments; it no longer counts in the list total. Deleting it again is a 404. ' +
    'An idea in a merge (merged into another, or others merged into it) is a 409: unmerge first.',
  permissions: ['ideas:delete'],
  request: { params: ideaIdParams, headers: IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: NOT_FOUND_404, 409: { idea_merged: true, idea_has_merged_ideas: true, merge_in_progress: true } },
  table: ['DeleteItem', 'UpdateItem'],
});

// Votes, comments and merges (issue 39): one group, so the routes of similar ideas can sit beside it.

const VOTE_ETAG = etagHeader('The vote\'s version as a strong ETag, e.g. `"2"`: send it back in `If-Match`');
const COMMENT_ETAG = etagHeader('The comment\'s version as a strong ETag, e.g. `"1"`: send it back in `If-Match`');
const PERSON_NOTE =
  'A person is named by `externalId` or `email`, stored for the portal and never returned: responses carry only a reference ' +
  "(`voterRef`, `authorRef`), stable in this workspace and the same for the same person's votes and comments.";

export const voteOnIdea = route({
  operationId: 'voteOnIdea',
  method: 'POST',
  path: '/ideas/{id}/votes',
  summary: 'Vote for an idea on behalf of a customer',
  description:
    `Counts the voter once: 201 with a new vote, or, for a voter who already voted on this idea, 200 with that vote, its ` +
    '`importance` and `note` changed to those sent (also when many such requests race). ' +
    `${PERSON_NOTE} An idea merged into another takes no votes (409 \`idea_merged\`: vote on \`mergedInto\`). ` +
    'With an `Idempotency-Key` a retry answers the first response and changes nothing.',
  personal: true,
  permissions: ['ideas:write'],
  idempotent: true,
  request: { params: ideaIdParams, body: voteWrite },
  response: {
    status: 201,
    body: okBody({ vote }),
    location: '/ideas/{vote.ideaId}/votes',
    description: 'A new vote (or, for a repeated Idempotency-Key, the first response again)',
    also: { status: 200, description: 'The voter had already voted: their vote, with the importance and note sent' },
    headers: VOTE_ETAG,
  },
  errors: { 404: NOT_FOUND_404, 409: MERGED_409 },
  // BatchGetItem: a retry's remembered response, read beside the workspace.
  table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
  needs: ['keyed-hash'],
});

export const listIdeaVotes = route({
  operationId: 'listIdeaVotes',
  method: 'GET',
  path: '/ideas/{id}/votes',
  summary: "List an idea's votes",
  description:
    'Every vote that counts for the idea (`pagination.total` is its `voteCount`), each with its `voterRef`, in a stable order (by ' +
    'vote id, not by time). For an idea others were merged into, their voters too, once each (`direct`, `mergedFrom` say how).',
  personal: true,
  permissions: ['ideas:read'],
  request: { params: ideaIdParams, query: listVotesQuery },
  response: { status: 200, body: okBody({ votes: z.array(vote), pagination }) },
  errors: { 404: NOT_FOUND_404 },
  table: ['GetItem', 'Query'],
});

export const deleteIdeaVote = route({
  operationId: 'deleteIdeaVote',
  method: 'DELETE',
  path: '/ideas/{id}/votes/{voteId}',
  summary: 'Withdraw a vote',
  description:
    'The voter no longer counts for the idea. On an idea others were merged into, the vote goes from the ideas it also came from ' +
    '(`mergedFrom`) too, so an unmerge does not bring it back. A vote on an idea merged into another is withdrawn there (409).',
  permissions: ['ideas:write'],
  request: {
    params: voteParams,
    headers: optionalIfMatch(
      'Optional: the ETag of the vote you read; if it has changed since, 409 `version_conflict` and nothing changes.',
    ),
  },
  response: { status: 200, body: okOnly },
  errors: {
    404: { not_found: 'no such idea in this workspace, or no vote with this id on it' },
    409: { ...MERGED_409, merge_in_progress: true },
  },
  // ConditionCheckItem: the gates of the merged ideas the vote also came from.
  table: ['BatchGetItem', 'DeleteItem', 'UpdateItem', 'ConditionCheckItem'],
});

export const createIdeaComment = route({
  operationId: 'createIdeaComment',
  method: 'POST',
  path: '/ideas/{id}/comments',
  summary: 'Comment on an idea',
  description:
    `A public or internal comment, in English and optionally Arabic. ${PERSON_NOTE} The author's \`name\` shows as \`authorName\`. ` +
    'An idea merged into another takes no comments (409). With an `Idempotency-Key` a retry answers the first response.',
  personal: true,
  permissions: ['ideas:write'],
  idempotent: true,
  request: { params: ideaIdParams, body: commentWrite },
  response: {
    status: 201,
    body: okBody({ comment }),
    location: '/ideas/{comment.ideaId}/comments',
    description: 'Created (or, for a repeated Idempotency-Key, the first response again)',
    headers: COMMENT_ETAG,
  },
  errors: { 404: NOT_FOUND_404, 409: MERGED_409 },
  // BatchGetItem: a retry's remembered response, read beside the workspace.
  table: ['BatchGetItem', 'ConditionCheckItem', 'PutItem', 'UpdateItem'],
  needs: ['keyed-hash'],
});

export const listIdeaComments = route({
  operationId: 'listIdeaComments',
  method: 'GET',
  path: '/ideas/{id}/comments',
  summary: "List an idea's comments",
  description:
    'Newest first; `visibility` keeps only public or only internal ones. An idea others were merged into lists their comments too, ' +
    'each with the `ideaId` it was written on.',
  personal: true,
  permissions: ['ideas:read'],
  request: { params: ideaIdParams, query: listCommentsQuery },
  response: { status: 200, body: okBody({ comments: z.array(comment), pagination }) },
  errors: { 404: NOT_FOUND_404 },
  table: ['GetItem', 'BatchGetItem', 'Query'],
});

const COMMENT_IF_MATCH = optionalIfMatch(
  'Optional: the ETag of the comment you read; if it has changed since, 409 `version_conflict` and nothing changes.',
);
const COMMENT_404 = { not_found: 'no such idea in this workspace, or no comment with this id written on it' };

export const updateIdeaComment = route({
  operationId: 'updateIdeaComment',
  method: 'PATCH',
  path: '/ideas/{id}/comments/{commentId}',
  summary: 'Change a comment',
  description:
    'Any of `body`, `bodyAr` (`null` clears it) and `visibility`, through the idea the comment was written on (its `ideaId`); the author never changes. Bumps the version.',
  personal: true,
  permissions: ['ideas:write'],
  request: { params: commentParams, body: commentPatch, headers: COMMENT_IF_MATCH },
  response: { status: 200, body: okBody({ comment }), headers: COMMENT_ETAG },
  errors: { 404: COMMENT_404 },
  table: ['GetItem', 'UpdateItem'],
});

export const deleteIdeaComment = route({
  operationId: 'deleteIdeaComment',
  method: 'DELETE',
  path: '/ideas/{id}/comments/{commentId}',
  summary: 'Delete a comment',
  description: 'Deletes the comment for good, through the idea it was written on.',
  permissions: ['ideas:delete'],
  request: { params: commentParams, headers: COMMENT_IF_MATCH },
  response: { status: 200, body: okOnly },
  errors: { 404: COMMENT_404 },
  table: ['GetItem', 'DeleteItem', 'UpdateItem'],
});

const MERGE_IF_MATCH = requiredIfMatch('Of the idea being merged or unmerged.');
/** `target`: the idea merged into (for an unmerge, out of), as it is now. */
const MERGE_RESPONSE = okBody({ data: idea, target: idea });
/**
 * A merge moves votes for 18 s at most (commands/move-merged-votes.ts), then answers 202 and the
 * table stream finishes: 25 s leaves room for its last transactions, and lets the MCP server, which
 * waits 2 s longer than any tool's operation, answer inside API Gateway's 30 s (merge_idea is a tool).
 */
const MERGE_TIMEOUT_SECONDS = 25;
const MOVING_202 = {
  status: 202,
  description:
    'Committed, with votes still moving: the table stream moves the rest within seconds (the target shows its exact count once they ' +
    'have; a merge or unmerge of the idea answers 409 `merge_in_progress` until then)',
} as const;

export const mergeIdea = route({
  operationId: 'mergeIdea',
  method: 'POST',
  path: '/ideas/{id}/merge',
  summary: 'Merge an idea into another',
  description:
    'The idea (a duplicate) joins `into`, which counts every distinct voter of both once and lists its comments; it answers ' +
    '`mergedInto`, leaves the default lists and takes no votes or comments. Never chained (409); into itself 400. Undone exactly by ' +
    '`POST /ideas/{id}/unmerge`. A move of votes outlasting the request answers 202; the table stream finishes it.',
  permissions: ['ideas:write'],
  request: { params: ideaIdParams, body: mergeBody, headers: MERGE_IF_MATCH },
  response: { status: 200, body: MERGE_RESPONSE, headers: ETAG_HEADER, also: MOVING_202 },
  errors: {
    400: { merge_into_itself: true, merge_target_not_found: true },
    404: NOT_FOUND_404,
    409: { idea_merged: true, idea_has_merged_ideas: true, merge_in_progress: true, merge_limit_reached: true },
  },
  table: ['BatchGetItem', 'GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
  timeoutSeconds: MERGE_TIMEOUT_SECONDS,
});

export const unmergeIdea = route({
  operationId: 'unmergeIdea',
  method: 'POST',
  path: '/ideas/{id}/unmerge',
  summary: 'Undo a merge',
  description: 'Both ideas become exactly as before the merge; votes cast on the target meanwhile stay on it. A 202 as for a merge.',
  permissions: ['ideas:write'],
  request: { params: ideaIdParams, headers: MERGE_IF_MATCH },
  response: { status: 200, body: MERGE_RESPONSE, headers: ETAG_HEADER, also: MOVING_202 },
  errors: { 404: NOT_FOUND_404, 409: { idea_not_merged: true, merge_in_progress: true } },
  table: ['BatchGetItem', 'GetItem', 'Query', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
  timeoutSeconds: MERGE_TIMEOUT_SECONDS,
});
