/**
 * What every bench scenario stands on: its context, a fresh workspace with an all-permission key,
 * and one authenticated request. bench/scenarios.ts lists the scenarios; each area's file adds its own.
 */
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { ideaEntity } from '../lib/ideas/entities.ts';
import { newIdeaId } from '../lib/ideas/record.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import type { Sandbox } from '../local/sandbox.ts';

export interface BenchContext {
  api: string;
  slug: string;
  host: string;
  key: string;
  data: Record<string, string>;
}

export interface Scenario {
  name: string;
  setup(sandbox: Sandbox): Promise<BenchContext>;
  request(context: BenchContext): Promise<Response>;
  /** Untimed, after each request: puts back what it changed, for a request that cannot be repeated as it is (a merge). */
  reset?(context: BenchContext): Promise<void>;
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
  return { api: sandbox.apiUrl, slug, host: ws.host, key: key.key, data: {} };
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

export interface BenchSurvey {
  surveyId: string;
  versionId: string;
  /** The draft's ETag after its definition was saved. */
  etag: string;
}

/** A new survey whose first draft holds `definition`. */
export async function draftSurvey(context: BenchContext, name: string, definition: unknown): Promise<BenchSurvey> {
  const created = (await (await send(context, 'POST', '/surveys', { name })).json()) as {
    survey: { id: string };
    version: { id: string };
  };
  const [surveyId, versionId] = [created.survey.id, created.version.id];
  const saved = await send(context, 'PUT', `/surveys/${surveyId}/versions/${versionId}`, { definition }, { 'If-Match': '"1"' });
  if (saved.status !== 200) throw new Error(`The bench survey was not saved: ${await saved.text()}`);
  return { surveyId, versionId, etag: saved.headers.get('etag') ?? '"2"' };
}

/** Publishes the draft `draftSurvey` saved. */
export async function publishSurvey(context: BenchContext, survey: BenchSurvey): Promise<void> {
  const published = await send(context, 'POST', `/surveys/${survey.surveyId}/publish`, { versionId: survey.versionId });
  if (published.status !== 200) throw new Error(`The bench survey was not published: ${await published.text()}`);
}

/**
 * An idea item as the table holds a submitted one (pending, private, version 1), created at `at` (ms)
 * with an id of that time: what a bench seeds straight into the table.
 */
export function seededIdeaItem(slug: string, at: number, fields: Record<string, unknown>) {
  const id = newIdeaId(at);
  const time = new Date(at).toISOString();
  return {
    ...ideaEntity.keys.idea(slug, id),
    entity: ideaEntity.name,
    workspace: slug,
    ...fields,
    id,
    moderationStatus: 'pending',
    visibility: 'private',
    version: 1,
    createdAt: time,
    updatedAt: time,
  };
}
