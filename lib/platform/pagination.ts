/**
 * Cursor pagination beside the spec's offset pagination, for full syncs.
 *
 * DynamoDB cannot skip: a page at `offset` N reads the N items before it, so walking a whole list
 * by offset reads about n²/(2·limit) items. A cursor names where the previous page stopped (the
 * DynamoDB key of its last item, given back as ExclusiveStartKey), so each page reads only itself.
 *
 * The cursor is opaque to clients: base64url JSON of {workspace, list, key, offset}, then an
 * HMAC-SHA256 over it. The MAC makes it unforgeable, and binding the workspace and the list means a
 * cursor copied into another workspace or another list is refused before it reaches DynamoDB: it
 * can never be used to start a Query at another tenant's keys.
 *
 * One mechanism binds every list: the list is the operation with its path parameters and its
 * filters (every query parameter but `limit`, `offset` and `cursor`), and whether the key holds the
 * permissions the route's `cursorBinds` names (a list whose records depend on what the key may
 * see), as a digest (a cursor is readable by whoever holds it, and a filter may be personal data).
 * The chain (http/middleware/cursor-page.ts) turns the request's `cursor` into the page's start
 * (`request.page`), and `paginate` turns the page's end into `nextCursor`: a store reads one page
 * from `{offset, after}` and says which key it ended on.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { type AuthContext, holds } from './auth/context.ts';
import { config } from './config.ts';
import { BadRequestError, ValidationError } from './errors.ts';
import type { Permission } from './permissions.ts';

/** A DynamoDB key (ExclusiveStartKey / LastEvaluatedKey) of plain string or number attributes. */
export type PageKey = Record<string, string | number>;

/** Where a page starts: an offset to skip to, or (from a cursor) the key the previous page ended on. */
export interface PageStart {
  limit: number;
  offset: number;
  after: PageKey | undefined;
}

/**
 * What a store returns for one page beside its items: whether more follow, the key of its last item,
 * and how many items it holds (a page may hold fewer than `limit`, e.g. cut to keep a response small).
 */
export interface StorePage {
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

interface CursorPayload {
  /** Format version, so a future change can refuse or migrate old cursors. */
  v: 1;
  w: string;
  l: string;
  k: PageKey;
  o: number;
}

const MAC_CONTEXT = 'cx-portal-cursor-v1\n';

let signingKey: Promise<Buffer> | undefined;

/**
 * The HMAC key, read once per cold start. The sandbox and tests pass it in `CURSOR_SIGNING_KEY`;
 * in AWS the function is given the ARN of a generated Secrets Manager secret instead, so the key
 * is never in the template, the function's configuration or the logs. The SDK client is loaded
 * only there, keeping it out of the sandbox's start-up.
 */
export function cursorSigningKey(): Promise<Buffer> {
  signingKey ??= (async () => {
    const local = process.env.CURSOR_SIGNING_KEY;
    if (local) return Buffer.from(local, 'utf8');
    const arn = config.required('CURSOR_SIGNING_SECRET_ARN');
    const { SecretsManagerClient, GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
    const { SecretString } = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
    if (!SecretString) throw new Error('The cursor signing secret has no value');
    return Buffer.from(SecretString, 'utf8');
  })();
  signingKey.catch(() => {
    // A failed read (throttling, a cold network) is retried by the next request, not cached.
    signingKey = undefined;
  });
  return signingKey;
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(MAC_CONTEXT).update(payload).digest();
}

function invalidCursor(): BadRequestError {
  return new BadRequestError(
    'invalid_cursor',
    'The cursor is not valid for this list: pass back `pagination.nextCursor` exactly as this list returned it, with the same key and workspace',
  );
}

async function signCursor(workspace: string, list: string, key: PageKey, offset: number): Promise<string> {
  const payload = Buffer.from(JSON.stringify({ v: 1, w: workspace, l: list, k: key, o: offset } satisfies CursorPayload)).toString(
    'base64url',
  );
  return `${payload}.${mac(await cursorSigningKey(), payload).toString('base64url')}`;
}

async function openCursor(workspace: string, list: string, cursor: string): Promise<{ key: PageKey; offset: number }> {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw invalidCursor();
  const expected = mac(await cursorSigningKey(), payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  let decoded: CursorPayload;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as CursorPayload;
  } catch {
    throw invalidCursor();
  }
  // Genuine, but issued for another workspace or another list: refused the same way as a forgery.
  if (decoded.v !== 1 || decoded.w !== workspace || decoded.l !== list) throw invalidCursor();
  return { key: decoded.k, offset: decoded.o };
}

/** A list's page as the chain hands it to the handler: where it starts, and the list its next cursor is bound to. */
export interface ListPage extends PageStart {
  readonly binding: { readonly workspace: string; readonly list: string };
}

/** What of a route (route.ts) its cursors are bound to beside the request: its operation and `cursorBinds`. */
interface CursorRoute {
  operationId: string;
  cursorBinds?: { permissions: readonly Permission[] };
}

/** The query parameters that say where a page starts, not which list it is. */
const PAGE_PARAMETERS = new Set(['limit', 'offset', 'cursor']);

/** JSON with object keys sorted, so the same selection always digests the same. */
function sortedJson(value: Record<string, unknown>): string {
  return JSON.stringify(Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
}

/** The list a request selects: its operation, path parameters, filters and the key's view, as the cursor binds it. */
function listOf(route: CursorRoute, params: Record<string, unknown>, query: Record<string, unknown>, auth: AuthContext): string {
  const filters = Object.fromEntries(Object.entries(query).filter(([name, value]) => !PAGE_PARAMETERS.has(name) && value !== undefined));
  const view = (route.cursorBinds?.permissions ?? []).map((permission) => holds(auth, permission));
  const selection = `${sortedJson(params)}\n${sortedJson(filters)}\n${JSON.stringify(view)}`;
  return `${route.operationId}:${createHash('sha256').update(selection).digest('base64url')}`;
}

/**
 * Where the request's page starts: at `offset`, or where the cursor's page ended, once the cursor is
 * found genuine and issued for this workspace and this list (else 400 `invalid_cursor`).
 */
export async function pageStartOf(
  route: CursorRoute,
  request: { params: unknown; query: { limit: number; offset: number; cursor?: string | undefined }; auth: AuthContext },
): Promise<ListPage> {
  const { limit, offset, cursor } = request.query;
  const workspace = request.auth.workspace.slug;
  const binding = {
    workspace,
    list: listOf(route, (request.params ?? {}) as Record<string, unknown>, request.query as Record<string, unknown>, request.auth),
  };
  if (cursor === undefined) return { limit, offset, after: undefined, binding };
  if (offset !== 0) {
    throw new ValidationError('invalid_query', [{ path: 'query.cursor', message: 'send either `offset` or `cursor`, not both' }]);
  }
  const opened = await openCursor(workspace, binding.list, cursor);
  return { limit, offset: opened.offset, after: opened.key, binding };
}

/**
 * Reads one page from where the request's page starts and adds where it starts (`offset`, also
 * known when walking by cursor) and the `nextCursor` to continue from (null on the last page).
 */
export async function paginate<P extends StorePage>(
  page: ListPage,
  read: (start: PageStart) => Promise<P>,
): Promise<Omit<P, 'lastKey' | 'returned'> & { offset: number; nextCursor: string | null }> {
  const { limit, offset, after, binding } = page;
  const { lastKey, returned, ...rest } = await read({ limit, offset, after });
  const nextCursor = rest.hasMore && lastKey ? await signCursor(binding.workspace, binding.list, lastKey, offset + returned) : null;
  return { ...rest, offset, nextCursor };
}

/**
 * One page of a list read whole and sorted in memory (one the table cannot page for us): from
 * `offset`, or from the first item after the cursor's, found by its place in the order, so a
 * cursor continues past an item deleted since it was issued. `keyOf` says an item's place as a
 * cursor keeps it; `follows` whether an item comes after such a place.
 */
export function pageOfSorted<T>(
  items: readonly T[],
  { limit, offset, after }: PageStart,
  order: { keyOf: (item: T) => PageKey; follows: (item: T, place: PageKey) => boolean },
): StorePage & { items: T[]; total: number } {
  let from = offset;
  if (after) {
    const next = items.findIndex((item) => order.follows(item, after));
    from = next === -1 ? items.length : next;
  }
  const shown = items.slice(from, from + limit);
  const last = shown.at(-1);
  return {
    items: shown,
    total: items.length,
    hasMore: from + limit < items.length,
    lastKey: last && order.keyOf(last),
    returned: shown.length,
  };
}
