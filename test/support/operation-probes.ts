/**
 * The documented refusals of an operation, derived from its manifest entry and one real request
 * of it: the contract walk (test/integration/api-examples.test.ts) sends them before each
 * operation's success call. Each is refused, so none changes anything, and each runs the route's
 * chain, most its handler too (an unknown id is looked up, a stale If-Match meets the conditional
 * write), so an action the route does not declare fails here, as IAM would fail it in AWS.
 */
import { randomUUID } from 'node:crypto';
import * as z from 'zod/mini';
import type { RouteDefinition } from '../../lib/platform/route.ts';
import { errorCodesOf } from '../../lib/platform/route-errors.ts';
import { type ApiResponse, type CallOptions, call } from './fixtures.ts';

/** One refusal to send: what it is, what the document promises for it, and how to send it. */
export interface Probe {
  why: string;
  status: number;
  code: string;
  send: () => Promise<ApiResponse>;
}

/** What the probes send with: the walk's workspace, a key for it, and a key of it that holds no permission. */
export interface ProbeCaller {
  host: string;
  key: string;
  keyWithoutPermissions: string;
}

/** The request the walk makes for its success call. */
export interface WalkRequest {
  path: string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A version no record reaches in a test run. */
const STALE_IF_MATCH = '"987654"';

function splitPath(path: string): { pathOnly: string; query: string } {
  const [pathOnly, query] = path.split('?');
  return { pathOnly: pathOnly!, query: query ? `?${query}` : '' };
}

/** The path parameters of `path` by the names of the route's template (`/ideas/{id}` → `{id}`). */
function paramsOf(route: RouteDefinition, path: string): Record<string, string> {
  const names = route.path.split('/');
  const values = path.split('/');
  return Object.fromEntries(names.flatMap((name, i) => (name.startsWith('{') ? [[name.slice(1, -1), values[i]!]] : [])));
}

export function probesOf(route: RouteDefinition, request: WalkRequest, caller: ProbeCaller): Probe[] {
  if (route.auth === 'none') return [];
  const { pathOnly, query } = splitPath(request.path);
  const send = (path: string, options: CallOptions) => () => call(route.method, path, options);
  const as = { host: caller.host, key: caller.key, body: request.body, headers: request.headers };
  const probes: Probe[] = [{ why: 'without a key', status: 401, code: 'missing_key', send: send(request.path, { ...as, key: undefined }) }];
  if (route.permissions.length > 0) {
    probes.push({
      why: 'with a key holding no permission',
      status: 403,
      code: 'missing_permission',
      send: send(request.path, { ...as, key: caller.keyWithoutPermissions }),
    });
  }
  const ids = pathOnly.match(UUID) ?? [];
  if (ids.length > 0) {
    probes.push({
      why: 'with ids that name no record',
      status: 404,
      code: 'not_found',
      send: send(pathOnly.replace(UUID, () => randomUUID()) + query, as),
    });
    const last = pathOnly.lastIndexOf(ids.at(-1)!);
    const malformed = `${pathOnly.slice(0, last)}not-a-uuid${pathOnly.slice(last + 36)}`;
    // Only where the route's schema refuses it: some ids are not UUIDs (an unknown one is then a 404).
    if (!z.safeParse(route.request!.params!, paramsOf(route, malformed)).success) {
      probes.push({ why: 'with a path id that is not a UUID', status: 400, code: 'invalid_path', send: send(malformed + query, as) });
    }
  }
  if (route.request?.headers?.['If-Match']) {
    probes.push({
      why: 'with a malformed If-Match',
      status: 400,
      code: 'invalid_header',
      send: send(request.path, { ...as, headers: { ...request.headers, 'If-Match': 'not-an-etag' } }),
    });
  }
  if (route.request?.body) {
    // Each JSON value that is not an object (issue 37 item 5: `null` reached a refinement, a 502).
    for (const rawBody of ['null', '[]', '0', '""']) {
      probes.push({
        why: `with the body ${rawBody}, not an object`,
        status: 400,
        code: 'invalid_body',
        send: send(request.path, { ...as, body: undefined, rawBody }),
      });
    }
    probes.push({
      why: 'with a body that is not JSON',
      status: 415,
      code: 'unsupported_media_type',
      send: send(request.path, {
        ...as,
        body: undefined,
        rawBody: 'name=form',
        headers: { ...request.headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    });
  }
  if (route.request?.query) {
    const unexpected = `${request.path}${query ? '&' : '?'}unexpectedParameter=1`;
    probes.push({ why: 'with an unknown query parameter', status: 400, code: 'invalid_query', send: send(unexpected, as) });
  }
  if (!probes.some((probe) => probe.status === 400)) {
    // Nothing of the request itself can be malformed: the one 400 left is selecting no workspace.
    probes.push({
      why: 'without a workspace',
      status: 400,
      code: 'missing_workspace_host',
      send: send(request.path, { ...as, host: undefined }),
    });
  }
  if (errorCodesOf(route).get(409)?.has('version_conflict') && route.request?.headers?.['If-Match']) {
    probes.push({
      why: 'with a stale If-Match',
      status: 409,
      code: 'version_conflict',
      send: send(request.path, { ...as, headers: { ...request.headers, 'If-Match': STALE_IF_MATCH } }),
    });
  }
  return probes;
}
