/**
 * What every bench scenario stands on: its context, a fresh workspace with an all-permission key,
 * and one authenticated request. bench/scenarios.ts lists the scenarios; each area's file adds its own.
 */
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import type { Sandbox } from '../local/sandbox.ts';

export interface BenchContext {
  api: string;
  host: string;
  key: string;
  data: Record<string, string>;
}

export interface Scenario {
  name: string;
  setup(sandbox: Sandbox): Promise<BenchContext>;
  request(context: BenchContext): Promise<Response>;
}

let counter = 0;
/** A new workspace (slug `bench-<prefix>-<pid>-<n>`) with a key holding every permission. */
export async function benchWorkspace(sandbox: Sandbox, prefix = 'api'): Promise<BenchContext> {
  const slug = `bench-${prefix}-${process.pid}-${++counter}`;
  const ws = await createWorkspace(sandbox.store, slug);
  const key = await createDeveloperKey(sandbox.store, {
    workspace: slug,
    permissions: [...PERMISSIONS],
    rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
  });
  return { api: sandbox.apiUrl, host: ws.host, key: key.key, data: {} };
}

export function send(
  context: BenchContext,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${context.api}${path}`, {
    method,
    headers: {
      'X-Service-Workspace-Host': context.host,
      Authorization: `Bearer ${context.key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}
