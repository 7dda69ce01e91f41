/**
 * The overview of the OpenAPI document: `info.description` and the tags' descriptions, which the
 * reference page (Redoc) shows before the operations. What a reader needs before the first call and
 * every one after: authentication, the order of checks, errors, pagination, safe retries, rate
 * limits and webhook signatures. The platform's error codes and API Gateway's own answers are listed
 * from their declarations (error-codes.ts, gateway-answers.ts); guides are linked where they are
 * published, or named in words (guides.ts).
 */
import { platformErrorCodes } from './error-codes.ts';
import { GATEWAY_ANSWERS } from './gateway-answers.ts';
import { guideLink } from './guides.ts';
import { API_PREFIX, type RouteDefinition } from './route.ts';

const section = (title: string, ...paragraphs: string[]) => [`## ${title}`, ...paragraphs].join('\n\n');

function errorsSection(): string {
  const codes = Object.entries(platformErrorCodes)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, meaning }]) => `| ${status} | \`${code}\` | ${meaning.replaceAll('|', '\\|')} |`);
  const gateway = Object.values(GATEWAY_ANSWERS).map(
    (answer) => `| ${answer.status} | \`{"message":"${answer.message}"}\` | ${answer.when} |`,
  );
  return section(
    'Errors',
    'Every refusal is `{"ok": false, "error": "<code>", "message": "…"}` with its status, never a stack trace. Key on `error`: ' +
      'the `message` is for people and may change. A body that breaks a schema adds `issues: [{path, message}]` listing every ' +
      'problem; a few refusals carry more (journey publish `diagnostics`, survey and response `issues` with `severity` and ' +
      '`code`, `changes` of `breaking_changes`), each declared in its operation’s schema.',
    'Each operation lists, per status, every code it can answer (`x-error-codes`): the ones below, which every operation of ' +
      'its kind answers, and its own, explained where it is listed. New codes may be added for new situations (see the guide ' +
      `${guideLink('versioning.md', 'Versioning')}); treat an unknown code by its status. Every code by status: the guide ${guideLink('errors.md', 'Errors')}.`,
    ['| Status | Code | Meaning |', '| --- | --- | --- |', ...codes].join('\n'),
    'API Gateway answers a few requests itself, in its own `{"message": …}` body, without `X-Request-Id` (no function ran); ' +
      'every answer carries `apigw-requestid`:',
    ['| Status | Body | When |', '| --- | --- | --- |', ...gateway].join('\n'),
  );
}

/** The document's `info.description`, in Markdown. */
export function apiOverview(): string {
  return [
    'The external business API of the customer experience portal: ideas, customer journeys, surveys and their responses, ' +
      'standard operating procedures (SOPs), webhooks and the knowledge bank. Every call acts on exactly one ' +
      `**workspace** and is authorised by a scoped **Developer key**. Paths are below \`${API_PREFIX}\`; bodies are JSON ` +
      '(`Content-Type: application/json`). The guides start at ' +
      `${guideLink('using-the-api.md', 'Using the API')} and ${guideLink('integrators.md', 'For integrators')}.`,
    section(
      'Authentication',
      'Send `Authorization: Bearer <Developer key>` (`cxk_` and 50 characters) on every operation but the public ones (this ' +
        'document, the reference page, the API index). A key belongs to one workspace; select it with ' +
        '`X-Service-Workspace-Host: <slug>.<domain>` (or the bare slug), or call the API on the workspace host itself. The header ' +
        'never grants access by itself: another workspace’s key is `invalid_key`.',
      'A key holds permissions (`ideas:read`, `surveys:write`, …); each operation names the ones it needs (`x-permissions`) and ' +
        'a module the workspace may switch off. Keys are read-only unless issued otherwise. Only a hash of the secret is kept, so ' +
        'a key is shown once when issued; revocation, expiry and rotation take effect on the very next request.',
    ),
    section(
      'Order of checks',
      'Every operation checks, in this order, and answers the first that fails: no header value holds a control character (400 ' +
        '`invalid_header`) → a workspace is selected (400 `missing_workspace_host`) and well-formed (400 `invalid_header`) → a key is sent and well-formed (401) → it is a key of ' +
        'this workspace with this secret (401 `invalid_key`) → not revoked or expired (401) → the workspace exists (404) → the rate ' +
        'limit (429) → the workspace is not suspended, the module is on, the key holds the permission (403) → the body is JSON (415, ' +
        '400 `invalid_json`) → path, query and body meet their schemas (400) → the operation itself (its 404, 409, 413, …). A ' +
        'caller without a valid key learns nothing about the request, nor whether the workspace exists.',
    ),
    errorsSection(),
    section(
      'Pagination',
      'Lists that may grow take `limit` (1–100, default 25) and `offset` (default 0), or instead of `offset` the opaque `cursor` ' +
        'the previous page returned in `pagination.nextCursor` (null on the last page): a cursor page costs the same however deep ' +
        'it is, and is bound to its list, filters and workspace (else 400 `invalid_cursor`). Each page answers `pagination` with ' +
        '`limit`, `offset`, `total` (what the filters select), `hasMore` and `nextCursor`. An unknown query parameter is a 400. ' +
        `A full sync, step by step: the guide ${guideLink('pagination.md', 'Pagination and cursors', 'Full sync with cursors')}.`,
    ),
    section(
      'Safe retries and concurrent changes',
      'Creates take an `Idempotency-Key` header (1–255 visible ASCII characters; a UUID is ideal): within 24 hours the same key ' +
        'with the same body answers the first response again, with `Idempotent-Replayed: true`, and creates nothing; with another ' +
        'body it is 409 `idempotency_key_reused`. Only successful creations are remembered.',
      'Records that change carry their version as a strong `ETag` (`"3"`). Send it back in `If-Match`: if the record moved on, ' +
        'the write is 409 `version_conflict`, with the current `ETag`, and changes nothing. Some operations require it (400 ' +
        '`if_match_required`); elsewhere, without it, the last writer wins.',
    ),
    section(
      'Rate limits',
      'Each key may make a number of requests a minute (by default 600; a key may be issued with its own), counted across every instance. Every ' +
        'authenticated answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds); past the limit the ' +
        'answer is 429 `rate_limited` with `Retry-After` in whole seconds. Failed authentications are braked by source address ' +
        'instead, so a forged key cannot lock its holder out. The stage as a whole is throttled too (API Gateway’s own 429).',
      'When AWS itself pushes back (DynamoDB or SQS throttling, or no answer in time) after the retries the service makes, the ' +
        'answer is 503 `service_busy` with `Retry-After`: busy, not broken, so send it again then (a 502 `internal_error` is a ' +
        'defect, not worth the same retry). Requests at once beyond what one key’s counter can take (one DynamoDB item) are the ' +
        'caller’s own: 429 `rate_limited`.',
    ),
    section(
      'Webhook signatures',
      'A webhook receives the events it subscribes to: ideas submitted and changed, survey responses finished (the event ' +
        'catalog, with each payload, is this document’s `webhooks` section). Each delivery is a POST signed as [Standard Webhooks](https://www.standardwebhooks.com) specifies: ' +
        '`webhook-id` (the event id, the same on every retry, so drop duplicates by it), `webhook-timestamp` (seconds) and ' +
        '`webhook-signature`: `v1,` and the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the ' +
        'base64-decoded part of the secret after `whsec_`. It also carries `Authorization: Bearer <secret>`. Check both against ' +
        'the raw body as received, refuse a timestamp more than 5 minutes from your clock, and answer 2xx within 10 s; anything ' +
        'else is retried for about two days. The secret is shown once, when the webhook is created or rotated; a webhook is ' +
        'enabled only after its receiver answers a signed verification event. Working receivers, in JavaScript and Python: the ' +
        `guide ${guideLink('webhooks.md', 'Webhooks', 'Verifying a delivery')}.`,
    ),
    section(
      'Versions',
      'Every answer carries `API-Version`, this document’s `info.version`. Additions (an operation, an optional field, a new ' +
        'error code for a new situation) keep the version’s major; an operation on its way out answers `Deprecation` and `Sunset` ' +
        `and is marked deprecated here. See the guides ${guideLink('versioning.md', 'Versioning')} and ${guideLink('limits.md', 'Limits')}.`,
    ),
  ].join('\n\n');
}

const TAG_DESCRIPTIONS: Record<RouteDefinition['tag'], () => string> = {
  Introduction: () =>
    'Where to start: the API index, this document and its reference page, and `GET /me` to check a Developer key and its ' +
    `workspace. The guide: ${guideLink('using-the-api.md', 'Using the API')}.`,
  Ideas: () =>
    'Ideas submitted by customers and staff: private and pending moderation when created, with the statuses and modules the ' +
    'workspace configures; votes and comments on behalf of customers, merges that can be undone exactly, lists by votes and ' +
    `trending; optimistic concurrency with ETag and If-Match, safe retries with Idempotency-Key. The guide: ${guideLink('ideas.md', 'Ideas')}.`,
  Journeys: () =>
    'Customer journeys: macro journeys and the micro journeys they zoom into, stages, rows and cells, in named versions with ' +
    `diagnostics; publish, diff, the map as a picture, and metrics from survey answers. The guide: ${guideLink('journeys.md', 'Journeys')}.`,
  Surveys: () =>
    'Surveys in versions: questions with routing, visibility and option filters, validation and simulation, publishing with ' +
    'breaking-change checks, targeting and designs; then their responses (submit, continue, list, change feed, erasure), ' +
    `summaries and exports. The guides: ${guideLink('surveys.md', 'Surveys')}, ${guideLink('survey-responses.md', 'Survey responses')}.`,
  SOPs: () =>
    'Standard operating procedures: drafts, review (submit, approve, send back with feedback), publication, and the ' +
    `directory of people and teams they reference. The guide: ${guideLink('sops.md', 'SOPs')}.`,
  Webhooks: () =>
    'Signed HTTP callbacks on idea changes and finished survey responses: create (the secret is shown once), verify and ' +
    'enable, rotate, disable, and each ' +
    'delivery’s attempts, with redelivery. The events and their payloads are in the `webhooks` section of this document; ' +
    `how to receive and verify them: the guide ${guideLink('webhooks.md', 'Webhooks', 'Receiving deliveries')}.`,
  'Knowledge Bank': () =>
    'Articles in categories for agents and customers: typed blocks, drafts and immutable revisions, publishing, Arabic and ' +
    `English translations, links and backlinks, full-text search and link checking. The guide: ${guideLink('knowledge-bank.md', 'Knowledge bank')}.`,
  People: () =>
    'What the API does for a person across its areas: the erasure of everything it keeps about one customer (survey responses, ' +
    `idea votes and comments, the ideas they submitted), in one call. The guide: ${guideLink('people.md', 'People')}.`,
  MCP: () =>
    'A remote Model Context Protocol server: the reads and safe writes of this API as tools for AI agents, under the same key ' +
    `and its permissions. The guide: ${guideLink('mcp.md', 'MCP server')}.`,
  Usage: () =>
    'What the workspace used and what it cost: requests across all its keys by operation and status class, DynamoDB units, ' +
    `webhook deliveries, searches and export bytes, by hour or day, priced. The guide: ${guideLink('operating.md', 'Operating', 'Tenants')}.`,
};

/** The document's `tags`, in the manifest's tag order, each with its description. */
export function apiTags(): { name: RouteDefinition['tag']; description: string }[] {
  return Object.entries(TAG_DESCRIPTIONS).map(([name, description]) => ({
    name: name as RouteDefinition['tag'],
    description: description(),
  }));
}
