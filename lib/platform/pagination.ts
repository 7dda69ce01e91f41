/**
 * Cursor pagination beside the spec's offset pagination, for full syncs.
 *
 * DynamoDB cannot skip: a page at `offset` N reads the N items before it, so walking a whole list
 * by offset reads about n²/(2·limit) items. A cursor names where the previous page stopped (the
 * DynamoDB key of its last item, given back as ExclusiveStartKey), so each page reads only itself.
 *
 * The cursor is opaque to clients: base64url JSON of {workspace, list, key, offset}, then an
 * HMAC-SHA256 over it. The MAC makes it unforgeable, and binding the workspace and the list (with
 * its path parameters) means a cursor copied into another workspace or another list is refused
 * before it reaches DynamoDB: it can never be used to start a Query at another tenant's keys.
 *
 * Each area's list uses `paginate`: its store reads one page from `{offset, after}` and says which
 * key the page ended on; this module turns the request's `cursor` into that start and the page's
 * end into `nextCursor`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from './config.ts';
import { BadRequestError, ValidationError } from './errors.ts';
import type { RouteDefinition } from './route.ts';

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

export interface PageRequest {
  /** The workspace the request acts on (the cursor is bound to it). */
  workspace: string;
  /** The list, with whatever selects it (e.g. `listWebhookDeliveries:<webhook id>`), the cursor is bound to. */
  list: string;
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/**
 * Reads one page by offset or by cursor and adds where the page starts (`offset`, also known when
 * walking by cursor) and the `nextCursor` to continue from (null on the last page).
 */
export async function paginate<P extends StorePage>(
  request: PageRequest,
  read: (start: PageStart) => Promise<P>,
): Promise<Omit<P, 'lastKey' | 'returned'> & { offset: number; nextCursor: string | null }> {
  let start: PageStart = { limit: request.limit, offset: request.offset, after: undefined };
  if (request.cursor !== undefined) {
    if (request.offset !== 0) {
      throw new ValidationError('invalid_query', [{ path: 'query.cursor', message: 'send either `offset` or `cursor`, not both' }]);
    }
    const { key, offset } = await openCursor(request.workspace, request.list, request.cursor);
    start = { limit: request.limit, offset, after: key };
  }
  const { lastKey, returned, ...page } = await read(start);
  const nextCursor = page.hasMore && lastKey ? await signCursor(request.workspace, request.list, lastKey, start.offset + returned) : null;
  return { ...page, offset: start.offset, nextCursor };
}

/**
 * Whether a route's list takes `cursor` (its query schema has the shared page shape): the CDK stack
 * gives exactly those functions the signing key.
 */
export function acceptsCursor(route: Pick<RouteDefinition, 'request'>): boolean {
  const query = route.request?.query as { _zod?: { def?: { shape?: Record<string, unknown> } } } | undefined;
  return query?._zod?.def?.shape?.cursor !== undefined;
}
