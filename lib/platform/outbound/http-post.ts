/**
 * Outbound HTTP to addresses customers choose: one webhook POST (every delivery and every
 * verification), or one HEAD/GET probe of a knowledge-bank link. Each is sent through the SSRF guard
 * (on the URL, on DNS answers and on the connected socket), a fresh connection each time (no
 * keep-alive socket can skip the check), an overall deadline, no redirects followed (a 3xx is a
 * failure: following one would let a receiver bounce us to an internal address), and at most
 * `maxResponseBytes` of the response read. It never throws: every outcome is a value.
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { writesAllowed } from '../write-gate.ts';
import {
  assertConnectedPeerAllowed,
  assertUrlShapeAllowed,
  BlockedDestinationError,
  type GuardOptions,
  guardedLookup,
  guardOptionsFromEnvironment,
} from './ssrf.ts';

const DELIVERY_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostOutcome {
  /** A 2xx answer. */
  ok: boolean;
  /** The receiver's status, or null when there was no HTTP answer. */
  status: number | null;
  durationMs: number;
  /** Why it failed, in words safe to show the webhook's owner; null on success. */
  error: string | null;
  /** The receiver's Retry-After header, as sent. */
  retryAfter: string | null;
}

export interface PostOptions extends Partial<GuardOptions> {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

function describeNetworkError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  if (error instanceof BlockedDestinationError) return `blocked: ${error.message}`;
  switch (error.code) {
    case 'ETIMEDOUT_DEADLINE':
      return `timed out after ${timeoutMs / 1000} s`;
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset by the receiver';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name does not resolve';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host is unreachable';
    default:
      if (error.code?.startsWith('ERR_TLS') || /certificate|SSL|TLS/i.test(error.message)) return `TLS error: ${error.message}`;
      return `network error: ${error.code ?? error.message}`;
  }
}

/**
 * A POST is something a receiver acts on: inside an API request it waits for the rate limit's
 * verdict, and fails with the 429 instead of sending when the request is over its limit (the one
 * way it throws; write-gate.ts).
 */
export async function postJson(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions = {},
): Promise<PostOutcome> {
  await writesAllowed();
  const { location: _location, ...outcome } = await send('POST', target, body, headers, options);
  return outcome;
}

export interface ProbeOutcome {
  /** The status, or null when there was no HTTP answer (then `error` says why). */
  status: number | null;
  /** The Location header of a redirect, resolved against the URL; never followed. */
  location: string | null;
  error: string | null;
  durationMs: number;
}

export interface DocumentOutcome {
  status: number | null;
  /** The body as UTF-8 text when it was 2xx and at most `maxResponseBytes`; else null. */
  text: string | null;
  error: string | null;
}

/**
 * A GET of a small document a customer's URL names (an OAuth client's metadata document), through
 * the same guard: the body is kept when it is a 2xx of at most `maxResponseBytes`, else refused.
 */
export async function getDocument(target: string, options: PostOptions = {}): Promise<DocumentOutcome> {
  const kept: Buffer[] = [];
  const outcome = await send('GET', target, '', { Accept: 'application/json', 'User-Agent': 'cx-portal-oauth/1' }, options, kept);
  if (outcome.status === null || !outcome.ok) return { status: outcome.status, text: null, error: outcome.error };
  const body = Buffer.concat(kept);
  if (body.length > (options.maxResponseBytes ?? MAX_RESPONSE_BYTES))
    return { status: outcome.status, text: null, error: 'the document is too large' };
  return { status: outcome.status, text: body.toString('utf8'), error: null };
}

/** A HEAD or GET of a URL, for its status alone: the body is read up to `maxResponseBytes` and dropped. */
export async function probe(target: string, method: 'HEAD' | 'GET', options: PostOptions = {}): Promise<ProbeOutcome> {
  const { status, location, error, durationMs } = await send(method, target, '', { 'User-Agent': 'cx-portal-link-checker/1' }, options);
  return { status, location, error: status === null ? error : null, durationMs };
}

function send(
  method: 'POST' | 'HEAD' | 'GET',
  target: string,
  body: string,
  headers: Record<string, string>,
  options: PostOptions,
  /** When given, the body's chunks are kept here (up to one past `maxResponseBytes`). */
  kept?: Buffer[],
): Promise<PostOutcome & { location: string | null }> {
  const guard: GuardOptions = { ...guardOptionsFromEnvironment(), ...stripUndefined(options) };
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);

  return new Promise<PostOutcome & { location: string | null }>((resolve) => {
    let settled = false;
    let deadline: NodeJS.Timeout | undefined;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'> & { location?: string | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve({ location: null, ...outcome, durationMs: elapsed() });
    };
    const fail = (error: NodeJS.ErrnoException) =>
      finish({ ok: false, status: null, error: describeNetworkError(error, timeoutMs), retryAfter: null });

    let url: URL;
    try {
      url = new URL(target);
      assertUrlShapeAllowed(url, guard);
    } catch (error) {
      return finish({
        ok: false,
        status: null,
        error: error instanceof BlockedDestinationError ? `blocked: ${error.message}` : 'the URL is not valid',
        retryAfter: null,
      });
    }

    let req: ReturnType<typeof httpRequest>;
    try {
      req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        method,
        headers: method === 'POST' ? { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } : headers,
        agent: false,
        lookup: guardedLookup(guard),
      });
    } catch (error) {
      return fail(error as NodeJS.ErrnoException);
    }
    deadline = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error('deadline');
      error.code = 'ETIMEDOUT_DEADLINE';
      fail(error);
      req.destroy();
    }, timeoutMs);

    req.on('socket', (socket) => {
      socket.once('connect', () => {
        try {
          assertConnectedPeerAllowed(socket.remoteAddress, guard);
        } catch (error) {
          fail(error as NodeJS.ErrnoException);
          req.destroy();
        }
      });
    });
    req.on('error', (error) => fail(error));
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
      const location = locationOf(res.headers.location, url);
      const outcome = () => {
        if (status >= 200 && status < 300) return { ok: true, status, error: null, retryAfter, location };
        if (status >= 300 && status < 400) return { ok: false, status, error: `redirect (${status}) not followed`, retryAfter, location };
        return { ok: false, status, error: `the receiver answered ${status}`, retryAfter, location };
      };
      // Read (and discard) at most maxResponseBytes: enough to let the receiver finish, never a memory risk.
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        kept?.push(chunk);
        if (read > maxResponseBytes) {
          finish(outcome());
          res.destroy();
        }
      });
      res.on('end', () => finish(outcome()));
      res.on('error', () => finish(outcome()));
      res.on('close', () => finish(outcome()));
    });
    req.end(body);
  });
}

function locationOf(header: string | undefined, base: URL): string | null {
  if (!header) return null;
  try {
    return new URL(header, base).href;
  } catch {
    return header;
  }
}

function stripUndefined(options: PostOptions): Partial<GuardOptions> {
  const guard: Partial<GuardOptions> = {};
  if (options.allowPrivateNetworks !== undefined) guard.allowPrivateNetworks = options.allowPrivateNetworks;
  if (options.allowHttp !== undefined) guard.allowHttp = options.allowHttp;
  return guard;
}
