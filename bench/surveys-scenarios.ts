/**
 * Survey scenarios for `npm run bench`: round trips of the survey operations on a 200-question
 * definition with logic (the engine's own timings are bench/surveys-engine.ts).
 */
import { createDeveloperKey } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { largeDefinition, largeDefinitionAnswers } from './surveys-engine.ts';

// The shape bench/scenarios.ts runs (kept structural: that file lists these scenarios).
interface Context {
  api: string;
  host: string;
  key: string;
  data: Record<string, string>;
}
interface SurveyScenario {
  name: string;
  setup(sandbox: Sandbox): Promise<Context>;
  request(context: Context): Promise<Response>;
}

let counter = 0;

function send(context: Context, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
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

/** A workspace with one survey whose first draft holds the 200-question definition. */
async function withLargeSurvey(sandbox: Sandbox): Promise<Context> {
  const slug = `bench-surveys-${process.pid}-${++counter}`;
  const ws = await createWorkspace(sandbox.store, slug);
  const key = await createDeveloperKey(sandbox.store, { workspace: slug, permissions: [...PERMISSIONS], rateLimitPerMinute: 1_000_000 });
  const context: Context = { api: sandbox.apiUrl, host: ws.host, key: key.key, data: {} };
  const created = (await (await send(context, 'POST', '/surveys', { name: 'Bench survey' })).json()) as {
    survey: { id: string };
    version: { id: string };
  };
  const saved = await send(
    context,
    'PUT',
    `/surveys/${created.survey.id}/versions/${created.version.id}`,
    { definition: largeDefinition() },
    { 'If-Match': '"1"' },
  );
  context.data = { surveyId: created.survey.id, versionId: created.version.id, etag: saved.headers.get('etag') ?? '"2"' };
  return context;
}

const versionPath = (c: Context) => `/surveys/${c.data.surveyId}/versions/${c.data.versionId}`;

export const surveyScenarios: SurveyScenario[] = [
  { name: 'POST /surveys', setup: withLargeSurvey, request: (c) => send(c, 'POST', '/surveys', { name: 'Another' }) },
  { name: 'GET /surveys', setup: withLargeSurvey, request: (c) => send(c, 'GET', '/surveys') },
  { name: 'GET /surveys/{id}', setup: withLargeSurvey, request: (c) => send(c, 'GET', `/surveys/${c.data.surveyId}`) },
  {
    name: 'GET /surveys/{id}/versions/{versionId} (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'GET', versionPath(c)),
  },
  {
    name: 'PUT /surveys/{id}/versions/{versionId} (200 questions, validated)',
    setup: withLargeSurvey,
    request: async (c) => {
      const res = await send(c, 'PUT', versionPath(c), { definition: largeDefinition() }, { 'If-Match': c.data.etag ?? '"2"' });
      c.data.etag = res.headers.get('etag') ?? c.data.etag ?? '"2"';
      return res;
    },
  },
  {
    name: 'POST /surveys/{id}/versions/{versionId}/simulate (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'POST', `${versionPath(c)}/simulate`, { answers: largeDefinitionAnswers() }),
  },
  {
    name: 'POST /surveys/validate (200 questions)',
    setup: withLargeSurvey,
    request: (c) => send(c, 'POST', '/surveys/validate', { definition: largeDefinition() }),
  },
];
