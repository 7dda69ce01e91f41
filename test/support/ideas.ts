/** Builders for the Ideas integration tests: a workspace with idea labels, ideas, one-window timing. */
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { type ApiResponse, adminStore, call, clientFor, newWorkspace, type TestWorkspace } from './fixtures.ts';

export const STATUSES = ['new', 'planned', 'done'];
export const MODULES = ['billing', 'mobile-app'];

/** A fresh workspace whose idea labels are STATUSES and MODULES, and its all-permission key. */
export async function ideasWorkspace(prefix = 'ideas'): Promise<TestWorkspace> {
  const ws = await newWorkspace(prefix);
  await setIdeaLabels(adminStore(), ws.slug, { statuses: STATUSES, modules: MODULES });
  return ws;
}

/** Create an idea and return the response (expects 201). */
export async function createIdea(ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await clientFor(ws).post('/ideas', { body: { title: 'Dark mode for the portal', ...body } });
  if (res.status !== 201) throw new Error(`Creating an idea failed: ${res.status} ${res.text}`);
  return res;
}

/**
 * Wait, if needed, until the next `seconds` of requests with this key fall inside one rate-limit
 * window: the first request of a window costs one more DynamoDB call (the counter reset), which
 * would otherwise make round-trip counts flaky.
 */
export async function insideOneRateLimitWindow(ws: TestWorkspace, seconds = 10): Promise<void> {
  const probe = await call('GET', '/ideas/labels', { host: ws.host, key: ws.key });
  const reset = Number(probe.headers.get('ratelimit-reset'));
  if (reset < seconds) {
    await new Promise((resolve) => setTimeout(resolve, (reset + 0.5) * 1000));
    await call('GET', '/ideas/labels', { host: ws.host, key: ws.key });
  }
}

export function etagOf(res: ApiResponse): string {
  const etag = res.headers.get('etag');
  if (!etag) throw new Error(`No ETag on ${res.status} ${res.text}`);
  return etag;
}
