/**
 * Builders for integration tests: a fresh workspace per test file (so files never see each
 * other's data), keys with chosen permissions, and a small HTTP client for the sandbox API.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { type CreateKeyOptions, createDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { createLocalTableClient, type TableClient } from '../../lib/admin/table-client.ts';
import { createWorkspace } from '../../lib/admin/workspaces.ts';
import { PERMISSIONS, type Permission } from '../../lib/platform/permissions.ts';
import { workspaceHostFetch } from './workspace-host-fetch.ts';

export const sandbox = inject('sandbox');

/**
 * Point handlers imported into this test process at the sandbox's services, as the sandbox does for
 * its own (call before importing a handler module: its clients read the environment when loaded).
 */
export function useSandboxEnvironment(overrides: Record<string, string> = {}): void {
  Object.assign(process.env, {
    TABLE_NAME: sandbox.tableName,
    AWS_ENDPOINT_URL_DYNAMODB: sandbox.dynamodbEndpoint,
    AWS_ENDPOINT_URL_SQS: sandbox.sqsEndpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    WORKSPACE_DOMAIN: 'localhost',
    POWERTOOLS_LOG_LEVEL: 'SILENT',
    ...overrides,
  });
}

let store: TableClient | undefined;
/** Operator access to the sandbox table, as cxctl has. */
export function adminStore(): TableClient {
  store ??= createLocalTableClient(sandbox.tableName, sandbox.dynamodbEndpoint);
  return store;
}

export function uniqueSlug(prefix = 'ws'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export interface TestWorkspace {
  slug: string;
  host: string;
  /** A key holding every permission. */
  key: string;
  keyId: string;
}

export async function newWorkspace(prefix?: string): Promise<TestWorkspace> {
  const slug = uniqueSlug(prefix);
  const workspace = await createWorkspace(adminStore(), slug);
  const key = await newKey(slug, [...PERMISSIONS]);
  return { slug, host: workspace.host, key: key.key, keyId: key.id };
}

export async function newKey(
  workspace: string,
  permissions: Permission[],
  options: Partial<Omit<CreateKeyOptions, 'workspace' | 'permissions'>> = {},
): Promise<{ id: string; key: string }> {
  return createDeveloperKey(adminStore(), { workspace, permissions, rateLimitPerMinute: 10_000, ...options });
}

/**
 * What authentication costs every request with a key, in DynamoDB calls (docs/latency.md): the one
 * BatchGetItem of the workspace copy, the key and the budget's shard, then the key's count and the
 * workspace budget's count, sent together.
 */
export const AUTH_CALLS = 3;

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The raw body text, for assertions about what must never appear in it. */
  text: string;
}

export interface CallOptions {
  host?: string;
  key?: string;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`: bytes too, to send what is not UTF-8. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Sent as an HTML form (`application/x-www-form-urlencoded`; an array is a repeated field) instead of JSON: OAuth's forms. */
  form?: Record<string, string | readonly string[]>;
  /**
   * The origin to call instead of the sandbox's 127.0.0.1: a workspace's own host,
   * `http://<slug>.localhost:<port>` (test/support/oauth.ts), where OAuth lives.
   */
  origin?: string;
  /** `path` is from the host's root (OAuth's `/.well-known/…` documents), not below /api/v1. */
  root?: boolean;
  /** `manual`: a redirect (OAuth's, back to a client) is the caller's to read, not followed to the client's address. */
  redirect?: 'manual';
}

function formOf(fields: Record<string, string | readonly string[]>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) form.append(name, one);
  return form.toString();
}

/** Call the sandbox API: `path` is below /api/v1, e.g. `/ideas?limit=5` (from the root with `root`). */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.host !== undefined) headers['X-Service-Workspace-Host'] = options.host;
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  let contentType = 'application/json';
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.form !== undefined) [body, contentType] = [formOf(options.form), 'application/x-www-form-urlencoded'];
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = contentType;
  }
  const api = new URL(sandbox.apiUrl);
  const url = `${options.origin ?? api.origin}${options.root ? '' : api.pathname}${path}`;
  // A workspace's own host (`*.localhost`) is resolved to loopback as a browser would (its redirects are not followed).
  const res = await (options.origin === undefined ? fetch : workspaceHostFetch)(url, { method, headers, body, redirect: options.redirect });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** A client bound to one workspace and key. */
export function clientFor(ws: { host: string; key: string }) {
  const bound =
    (method: string) =>
    (path: string, options: Omit<CallOptions, 'host' | 'key'> = {}) =>
      call(method, path, { host: ws.host, key: ws.key, ...options });
  return { get: bound('GET'), post: bound('POST'), put: bound('PUT'), patch: bound('PATCH'), delete: bound('DELETE') };
}

/** DynamoDB calls the sandbox counted for this request (X-Sandbox-DynamoDB-Calls). */
export function dynamoDbCalls(res: ApiResponse): number {
  return Number(res.headers.get('x-sandbox-dynamodb-calls'));
}

/** The sequential depth of this request's DynamoDB calls (X-Sandbox-DynamoDB-Depth: calls sent together count once). */
export function dynamoDbDepth(res: ApiResponse): number {
  return Number(res.headers.get('x-sandbox-dynamodb-depth'));
}

/** The error envelope every failure must have. */
export function expectErrorEnvelope(res: ApiResponse, status: number, code: string): void {
  if (res.status !== status || res.body?.ok !== false || res.body?.error !== code || typeof res.body?.message !== 'string') {
    throw new Error(`Expected ${status} ${code}, got ${res.status} ${res.text}`);
  }
}
