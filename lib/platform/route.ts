/**
 * The shape of one entry of the route manifest (lib/manifest.ts). The CDK stack, the local
 * sandbox, the OpenAPI generator and the tests all loop over the manifest, so a route is written
 * down once, here, and nowhere else.
 */
import * as z from 'zod/mini';
import type { VersionPrecondition } from './data/conditions.ts';
import type { CodeOf } from './error-codes.ts';
import type { ListPage } from './pagination.ts';
import type { ModuleName, Permission } from './permissions.ts';
import type { Deprecation } from './version.ts';

/** Every path of the API is below this prefix (spec part 9). */
export const API_PREFIX = '/api/v1';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Tag = 'Introduction' | 'Ideas' | 'Journeys' | 'Surveys' | 'SOPs' | 'Webhooks' | 'Knowledge Bank' | 'MCP' | 'People' | 'Usage';
export type Schema = z.ZodMiniType;

/** The DynamoDB actions a route may declare (see `RouteDefinition.table`). */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'BatchWriteItem'
  | 'ConditionCheckItem';

/**
 * What the Developer key check itself sends, so every `developer-key` route may: BatchGetItem (the
 * workspace and the key) and UpdateItem (the key's rate-limit counter; the CDK stack limits it by
 * IAM to the rate-limit attributes unless the route declares UpdateItem itself).
 */
const AUTHENTICATION_TABLE_ACTIONS: readonly TableAction[] = ['BatchGetItem', 'UpdateItem'];

/** Whether the route's own function checks the Developer key (reading the workspace and the key from the table). */
export function authenticatesItself(route: Pick<RouteDefinition, 'auth'>): boolean {
  return (route.auth ?? 'developer-key') === 'developer-key';
}

/** What authentication itself sends for a route (the CDK stack grants it; the sandbox evaluates the grant). */
export function authenticationActionsOf(route: Pick<RouteDefinition, 'auth'>): readonly TableAction[] {
  return authenticatesItself(route) ? AUTHENTICATION_TABLE_ACTIONS : [];
}

/** The statuses a route declares codes for; the others' codes are the same for every route (route-errors.ts). */
type DeclaredErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 429;

/** A route's own error codes by status: each code with what it means for this route, or `true` for the catalog's meaning. */
type RouteErrors = { readonly [S in DeclaredErrorStatus]?: { readonly [C in CodeOf<S>]?: string | true } };

interface HeaderDeclaration {
  description: string;
  required?: boolean;
}

/** A route's `If-Match`: optional unless `required`; declare `required: true` as a literal, so the handler's precondition is typed as present. */
export interface IfMatchDeclaration extends HeaderDeclaration {
  /** `false`: `*` is refused like a missing one, because the write must name the version it replaces. */
  anyVersion?: false;
  /**
   * A required one whose absence the operation answers once it has read the record, because the
   * route's documented order puts the record's 404 and state first: the chain parses it (a
   * malformed one is still 400 `invalid_header`) and the operation refuses a missing one with the
   * chain's own answer (`ifMatchRequired()`, http/conditional-request.ts).
   */
  missingAfterRead?: true;
}

/** A success body: `ok: true` and the operation's members (`okOnly` when it has none, schemas.ts). */
export function okBody<const S extends z.core.$ZodLooseShape>(members: S) {
  return z.object({ ok: z.literal(true), ...members });
}

/** A response's `ETag` header, described in the area's words (what it is the tag of, and what to do with it). */
export function etagHeader(description: string) {
  return { ETag: { description } };
}

/** A write's optional `If-Match`: without one the write proceeds; a stale one is 409 `version_conflict`. */
export function optionalIfMatch(description: string) {
  return { 'If-Match': { description } };
}

/** A write's required `If-Match` (the chain refuses a missing one), with the declaration's other settings. */
export function requiredIfMatch<const O extends Omit<IfMatchDeclaration, 'description' | 'required'> = Record<never, never>>(
  description: string,
  options?: O,
) {
  return { 'If-Match': { required: true, ...(options as O), description } } as const;
}

export interface RouteDefinition {
  operationId: string;
  method: HttpMethod;
  /**
   * Path below `/api/v1`, with `{name}` parameters as in API Gateway and OpenAPI; `''` is `/api/v1`
   * itself (API Gateway refuses a route ending in `/`).
   */
  path: '' | `/${string}`;
  /**
   * The path is from the host's root, not below `/api/v1`: a document a standard fixes there (OAuth's
   * `/.well-known/…` metadata, RFC 8414 and RFC 9728). Every other route lives below the prefix.
   */
  root?: true;
  /**
   * The route is called on the workspace's own host (`https://<slug>.<domain>`), which names the
   * workspace by itself: OAuth's, which a browser and an OAuth client reach by the addresses the
   * metadata gives, without `X-Service-Workspace-Host`. A `root` route is on it too
   * (`onWorkspaceHost(route)`). It still answers on the shared edge with the header.
   */
  workspaceHost?: true;
  /** The Lambda entry file, relative to the repository root; it exports `handler`. */
  handler: `functions/${string}.ts`;
  tag: Tag;
  /**
   * The nested stack that deploys it, when not its tag's: an area grown past half a stack's budget
   * (test/cdk/stack.test.ts) deploys a part of its routes in a stack of their own. A moved route's
   * function is replaced on the next deploy, so name a part once and keep it.
   */
  deployedIn?: string;
  summary: string;
  description?: string;
  /**
   * `developer-key` (the default) runs the workspace, key, permission and rate-limit checks. `forwarded`
   * takes the same key and workspace but checks neither itself: the function passes them on with each
   * call it makes to the API's own routes (the MCP server, lib/mcp/), which check them, so it needs no
   * table permission at all. `none` is public.
   */
  auth?: 'developer-key' | 'forwarded' | 'none';
  /** The module a workspace can switch off; null for routes every workspace has. */
  module: ModuleName | null;
  /** Every one of these must be held by the key. */
  permissions: readonly Permission[];
  request?: {
    params?: Schema;
    query?: Schema;
    body?: Schema;
    /** How the body is sent when not as JSON: OAuth's token, revocation and consent forms (RFC 6749). */
    contentType?: 'application/x-www-form-urlencoded';
    /**
     * Extra headers the route reads (documented in OpenAPI). `If-Match` is parsed by the chain,
     * which refuses a required one that is missing (http/middleware/if-match.ts) and hands the
     * handler `request.precondition`.
     */
    headers?: { 'If-Match'?: IfMatchDeclaration } & Record<string, HeaderDeclaration>;
  };
  response: {
    status: 200 | 201 | 202;
    body: Schema;
    /**
     * A response that is not JSON (the reference page, a journey map picture); `body` then describes
     * a string, sent as UTF-8. An SVG also gets `SVG_RESPONSE_HEADERS` from the chain.
     */
    contentType?: 'text/html' | 'image/svg+xml';
    /**
     * Its errors are pages a person reads in a browser (an HTML page in their language, naming the
     * error code and message), not the JSON envelope: the OAuth consent page's, which no program reads.
     */
    errorsAsPages?: true;
    description?: string;
    headers?: Record<string, { description: string }>;
    /**
     * Where a created record is read (required with 201; a 202's job, where it is followed): a path
     * below `/api/v1` whose `{a.b}` placeholders are filled from the response body, e.g.
     * `/ideas/{data.id}`. The chain sends it as `Location` and the OpenAPI document lists the
     * header, so no handler builds it by hand.
     */
    location?: `/${string}`;
    /**
     * What the route answers beside its success and its error envelope: a protocol's own answers
     * (the MCP server's `202` for a notification, and its JSON-RPC error responses, which its SDK
     * sends with `400` or `406`). The document lists each with its body; a status that also has
     * error codes takes either body.
     */
    otherAnswers?: Readonly<Partial<Record<202 | 302 | 303 | 400 | 401 | 406, { description: string; body?: Schema }>>>;
    /**
     * A second success status the operation answers with the same body, and when: a create that finds
     * the record already there (a voter voting again) answers 200 where a new one is 201; an operation
     * whose work goes on after it answers (a merge's votes still moving) 202 where a finished one is 200.
     * The handler returns `status`; the document lists both.
     */
    also?: { status: 200 | 202; description: string };
  };
  /**
   * A list whose records depend on what the key may see: its cursors are bound also to whether the
   * key holds each of these permissions, so a cursor issued to a writer's view is refused in a
   * reader's (pagination.ts). Its filters and path parameters bind every list's cursor anyway.
   */
  cursorBinds?: { permissions: readonly Permission[] };
  /**
   * The operation reads or writes what a person did in their own name (a customer's vote, a comment
   * in their words and its author): personal data, and the person's decision, which the MCP server
   * never hands an agent (lib/mcp/tool-rule.ts).
   */
  personal?: true;
  /**
   * A creating POST that honours `Idempotency-Key` through the platform's one mechanism
   * (lib/platform/data/idempotency.ts): the chain parses the header into `request.idempotency` and
   * the OpenAPI document lists the header and `Idempotent-Replayed`.
   */
  idempotent?: true;
  /**
   * The error codes this route answers beyond those every route of its shape answers
   * (route-errors.ts: a body brings `invalid_body`, a path id `not_found`, …), by status: each with
   * what it means here, or `true` for the catalog's meaning (error-codes.ts). A code may also be
   * repeated here to say what it means for this route. The document lists each status's codes
   * (`x-error-codes`) and a 409 or 413 declared here is one of the route's statuses.
   */
  errors?: RouteErrors;
  /**
   * The members an error status of this route can carry beside `ok`, `error` and `message`: the
   * `details` of the ApiError its handler throws (`diagnostics`, `changes`), or `issues` richer than
   * `{path, message}`. The document's schema of that status declares them (each optional: a status
   * covers several codes), so every error body a client can receive validates against it.
   */
  errorMembers?: Partial<Record<400 | 409 | 413, Record<string, Schema>>>;
  /**
   * The DynamoDB actions the operation itself performs on the table, each one it may send: the
   * CDK stack grants exactly these (IAM action `dynamodb:<name>`) on the table, `Query` also on its
   * index, and nothing else. A transaction needs the action of each of its parts (`PutItem`,
   * `UpdateItem`, `DeleteItem`, `ConditionCheckItem`); there is no `TransactWriteItems` permission.
   * Authentication's own calls are granted apart to every `developer-key` route (BatchGetItem of
   * the workspace and the key; UpdateItem limited to the rate-limit attributes): list only what the
   * handler does.
   * Omit for a route whose handler touches no table item. Example: a create that puts an item and
   * bumps a counter in one transaction is `['PutItem', 'UpdateItem']`, and may delete nothing.
   * The sandbox evaluates every request against the synthesized policy (local/iam/) and denies what
   * IAM would (AccessDeniedException, a 502), so a missing one fails the
   * tests rather than the first request after a deploy.
   */
  table?: readonly TableAction[];
  /**
   * Extra environment, grants or files a handler needs: the webhook delivery or recovery queue, a file rendered
   * at build time beside its bundle (the API reference page, scripts/build-docs.ts, or the OpenAPI
   * document, scripts/write-openapi.ts), or the server secret a keyed hash of an identifier is
   * derived from (lib/platform/keyed-hash.ts), or the API's own base URL (`API_BASE_URL`, set by the
   * stack: a function that calls the API, the MCP server).
   */
  needs?: readonly (
    | 'webhook-delivery-queue'
    | 'webhook-recovery-queue'
    | 'api-reference-page'
    | 'openapi-document'
    | 'keyed-hash'
    | 'api-base-url'
  )[];
  /** Lambda timeout when the default (timeouts.ts DEFAULT_TIMEOUT_SECONDS, 10 s) is too short, e.g. an operation that calls out over HTTP. */
  timeoutSeconds?: number;
  /**
   * Set when the operation is on its way out: every response gets `Deprecation` and `Sunset`
   * headers and the OpenAPI operation `deprecated: true` (README, Versioning).
   */
  deprecated?: Deprecation;
}

/**
 * Every SVG the API sends is a document a browser may open on its own: no script, no fetch, no
 * sniffing it as something else; inline styles are all it may use.
 */
export const SVG_RESPONSE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
  'X-Content-Type-Options': 'nosniff',
} as const;

/** Whether the route is called on the workspace's own host (OAuth's routes): see `RouteDefinition.workspaceHost`. */
export function onWorkspaceHost(route: Pick<RouteDefinition, 'root' | 'workspaceHost'>): boolean {
  return route.root === true || route.workspaceHost === true;
}

/** The route's path as API Gateway and a client see it: below `/api/v1`, or from the root for a `root` route. */
export function fullPathOf(route: Pick<RouteDefinition, 'path' | 'root'>): string {
  return route.root ? route.path : `${API_PREFIX}${route.path}`;
}

export function defineRoute<const R extends RouteDefinition>(route: R): R {
  return route;
}

/** What an area decides once for every route of a routes file (`routesOf`). */
interface AreaDeclaration {
  tag: Tag;
  /** The module a workspace can switch off; null for routes every workspace has. */
  module: ModuleName | null;
  /** The folder of the area's Lambda entries: `functions/<module>` unless given (as it must be without a module). */
  functions?: `functions/${string}`;
  /**
   * The area's name as its operation ids spell it, left out of its entry files' names where another
   * word follows it: `KnowledgeBank` makes createKnowledgeBankArticle `create-article.ts`.
   */
  omitFromFileNames?: string;
  /** See `RouteDefinition.deployedIn`. */
  deployedIn?: string;
  /** See `RouteDefinition.workspaceHost`. */
  workspaceHost?: true;
}

/** A route of an area: its own fields; `handler` only where the entry file is not named by the convention. */
type AreaRoute = Omit<RouteDefinition, 'tag' | 'module' | 'handler' | 'deployedIn' | 'workspaceHost'> & {
  handler?: RouteDefinition['handler'];
};

/** The operation id in kebab case, without the area's name where another word follows it. */
function entryFileName(operationId: string, omit: string | undefined): string {
  const name = omit === undefined ? operationId : operationId.replace(new RegExp(`${omit}(?=[A-Z])`), '');
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * The declaration function of one routes file: each route states its own fields, and the area's tag,
 * module and stack come from here once. Its handler is `<functions>/<entry file>.ts`, the entry file
 * named after the operation id (`entryFileName`: getJourneyVersion → get-journey-version.ts), unless
 * the route names its own.
 */
export function routesOf<const A extends AreaDeclaration>(area: A) {
  const { functions = area.module && `functions/${area.module}`, omitFromFileNames, ...shared } = area;
  if (!functions) throw new Error(`routesOf: the ${area.tag} routes have no module, so name their functions folder`);
  return <const R extends AreaRoute>(route: R): R & Omit<A, 'functions' | 'omitFromFileNames'> & { handler: RouteDefinition['handler'] } =>
    defineRoute({
      ...route,
      ...shared,
      handler: route.handler ?? `${functions}/${entryFileName(route.operationId, omitFromFileNames)}.ts`,
    });
}

type Output<S> = S extends Schema ? z.output<S> : undefined;
type Input<S> = S extends Schema ? z.input<S> : never;

type RequestPart<R extends RouteDefinition, K extends 'params' | 'query' | 'body'> = R['request'] extends object
  ? Output<R['request'][K]>
  : undefined;

type IfMatchOf<R extends RouteDefinition> = NonNullable<R['request']> extends { headers: { 'If-Match': infer H } } ? H : undefined;

/** What the chain guarantees of a route's If-Match: present where required, naming versions where `*` is refused. */
type PreconditionOf<R extends RouteDefinition> =
  IfMatchOf<R> extends { missingAfterRead: true }
    ? VersionPrecondition
    : IfMatchOf<R> extends { required: true }
      ? IfMatchOf<R> extends { anyVersion: false }
        ? Extract<VersionPrecondition, { anyVersion: false }>
        : NonNullable<VersionPrecondition>
      : VersionPrecondition;

/** A list's page where the route's query takes `cursor`. */
type PageOf<R extends RouteDefinition> = 'cursor' extends keyof NonNullable<RequestPart<R, 'query'>> ? ListPage : undefined;

/** What a handler function receives: validated input plus who is asking. */
export interface ApiRequest<R extends RouteDefinition> {
  params: RequestPart<R, 'params'>;
  query: RequestPart<R, 'query'>;
  body: RequestPart<R, 'body'>;
  /** Raw request headers, names lower-cased. */
  headers: Record<string, string | undefined>;
  auth: import('./auth/context.ts').AuthContext;
  /** For `idempotent` routes sent an `Idempotency-Key`: what to remember the response under. */
  idempotency: import('./data/idempotency.ts').IdempotentRequest | undefined;
  /** The route's declared `If-Match`, parsed by the chain (undefined when none was sent and none is required). */
  precondition: PreconditionOf<R>;
  /**
   * A list's page (a route whose query takes `cursor`): where it starts, from `offset` or from a
   * cursor the chain verified against the list as this request selects it (pagination.ts).
   */
  page: PageOf<R>;
  requestId: string;
}

/** What a handler function returns; the status defaults to the route's success status. */
export interface ApiResult<R extends RouteDefinition> {
  body: Input<R['response']['body']>;
  headers?: Record<string, string>;
  status?: number;
}

/**
 * Whether a route's list takes `cursor` (its query schema has the shared page shape): the CDK stack
 * gives exactly those functions the signing key.
 */
export function acceptsCursor(route: Pick<RouteDefinition, 'request'>): boolean {
  const query = route.request?.query as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined;
  return query?._zod?.def?.shape?.cursor !== undefined;
}

/** The nested stack a route is deployed in (cdk/portal-api-stack.ts): its `deployedIn`, else its tag. */
export function stackOf(route: Pick<RouteDefinition, 'tag' | 'deployedIn'>): string {
  return route.deployedIn ?? route.tag;
}
