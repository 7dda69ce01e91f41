/**
 * Builders for integration tests: a fresh workspace per test file (so files never see each
 * other's data), keys with chosen permissions, and a small HTTP client for the sandbox API.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { type CreateKeyOptions, createDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { createLocalStore, type Store } from '../../lib/admin/store.ts';
import { createWorkspace } from '../../lib/admin/workspaces.ts';
import { PERMISSIONS, type Permission } from '../../lib/platform/permissions.ts';

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

let store: Store | undefined;
/** Operator access to the sandbox table, as cxctl has. */
export function adminStore(): Store {
  store ??= createLocalStore(sandbox.tableName, sandbox.dynamodbEndpoint);
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
}

/** Call the sandbox API: `path` is below /api/v1, e.g. `/ideas?limit=5`. */
export async function call(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.host !== undefined) headers['X-Service-Workspace-Host'] = options.host;
  if (options.key !== undefined) headers.Authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${sandbox.apiUrl}${path}`, { method, headers, body });
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
