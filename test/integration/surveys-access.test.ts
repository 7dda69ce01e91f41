/** Surveys over HTTP: permissions, tenant isolation, targeting against the audience catalog, concurrency, the list. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../lib/platform/permissions.ts';
import {
  type ApiResponse,
  AUTH_CALLS,
  call,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  sandbox,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { newSurvey, routedDefinition, surveyWithDefinition } from '../support/surveys.ts';

const run = promisify(execFile);
const MISSING = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('surveys-access');
  api = clientFor(ws);
});

async function cxctl(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['bin/cxctl.mjs', ...args, '--endpoint', sandbox.dynamodbEndpoint, '--json'], {
      env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' },
    });
    return { code: 0, stdout, stderr: '' };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function audienceFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'audience-')), 'audience.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe('permissions', () => {
  // Every operation with the permission it needs; ids are filled in once a survey exists.
  const operations: {
    name: string;
    permission: Permission;
    method: string;
    path: (s: string, v: string, d: string) => string;
    body?: unknown;
  }[] = [
    { name: 'list', permission: 'surveys:read', method: 'GET', path: () => '/surveys' },
    { name: 'create', permission: 'surveys:write', method: 'POST', path: () => '/surveys', body: { name: 'x' } },
    { name: 'read', permission: 'surveys:read', method: 'GET', path: (s) => `/surveys/${s}` },
    { name: 'update', permission: 'surveys:write', method: 'PATCH', path: (s) => `/surveys/${s}`, body: { name: 'y' } },
    { name: 'archive', permission: 'surveys:delete', method: 'DELETE', path: (s) => `/surveys/${s}` },
    { name: 'read version', permission: 'surveys:read', method: 'GET', path: (s, v) => `/surveys/${s}/versions/${v}` },
    { name: 'new version', permission: 'surveys:write', method: 'POST', path: (s) => `/surveys/${s}/versions`, body: {} },
    {
      name: 'save version',
      permission: 'surveys:write',
      method: 'PUT',
      path: (s, v) => `/surveys/${s}/versions/${v}`,
      body: { definition: routedDefinition() },
    },
    { name: 'discard version', permission: 'surveys:write', method: 'DELETE', path: (s, v) => `/surveys/${s}/versions/${v}` },
    {
      name: 'simulate',
      permission: 'surveys:read',
      method: 'POST',
      path: (s, v) => `/surveys/${s}/versions/${v}/simulate`,
      body: { answers: {} },
    },
    {
      name: 'validate',
      permission: 'surveys:read',
      method: 'POST',
      path: () => '/surveys/validate',
      body: { definition: routedDefinition() },
    },
    { name: 'publish', permission: 'surveys:write', method: 'POST', path: (s) => `/surveys/${s}/publish`, body: { versionId: MISSING } },
    { name: 'close', permission: 'surveys:write', method: 'POST', path: (s) => `/surveys/${s}/close` },
    { name: 'designs', permission: 'surveys:read', method: 'GET', path: () => '/surveys/designs' },
    {
      name: 'new design',
      permission: 'surveys:write',
      method: 'POST',
      path: () => '/surveys/designs',
      body: { name: 'd', primaryColor: '#000000' },
    },
    {
      name: 'change design',
      permission: 'surveys:write',
      method: 'PATCH',
      path: (_s, _v, d) => `/surveys/designs/${d}`,
      body: { name: 'e' },
    },
    { name: 'audience', permission: 'surveys:read', method: 'GET', path: () => '/surveys/audience-attributes' },
  ];

  it("answers 403 missing_permission to a key without the operation's permission, and lets one with it through", async () => {
    const { surveyId, versionId } = await surveyWithDefinition(api);
    const designId = (await api.get('/surveys/designs')).body.designs[0].id;
    const all: Permission[] = ['surveys:read', 'surveys:write', 'surveys:delete'];
    for (const op of operations) {
      const without = await newKey(
        ws.slug,
        all.filter((p) => p !== op.permission),
      );
      const denied = await call(op.method, op.path(surveyId, versionId, designId), {
        host: ws.host,
        key: without.key,
        body: op.body,
        headers: { 'If-Match': '"2"' },
      });
      expectErrorEnvelope(denied, 403, 'missing_permission');
      const only = await newKey(ws.slug, [op.permission]);
      const allowed = await call(op.method, op.path(MISSING, MISSING, MISSING), {
        host: ws.host,
        key: only.key,
        body: op.body,
        headers: { 'If-Match': '"2"' },
      });
      expect(allowed.status, `${op.name}: ${allowed.text}`).not.toBe(403);
    }
    // Nothing changed by the refused calls.
    const survey = await api.get(`/surveys/${surveyId}`);
    expect(survey.body.survey).toMatchObject({ status: 'draft', name: 'Onboarding survey' });
    expect(survey.body.versions).toHaveLength(1);
  });

  it('answers 403 module_disabled when the workspace has surveys switched off', async () => {
    const other = await newWorkspace('surveys-off');
    const result = await run(
      process.execPath,
      ['bin/cxctl.mjs', 'workspace', 'modules', other.slug, '--disable', 'surveys', '--endpoint', sandbox.dynamodbEndpoint],
      {
        env: { ...process.env, TABLE_NAME: sandbox.tableName, WORKSPACE_DOMAIN: 'localhost' },
      },
    );
    expect(result.stderr).toBe('');
    expectErrorEnvelope(await clientFor(other).get('/surveys'), 403, 'module_disabled');
  });
});

describe('tenant isolation', () => {
  it("answers another workspace's survey, version and design ids exactly like ids that never existed", async () => {
    const { surveyId, versionId } = await surveyWithDefinition(api);
    const other = clientFor(await newWorkspace('surveys-other'));
    await other.post('/surveys', { body: { name: 'Theirs' } });
    const designId = (await api.get('/surveys/designs')).body.designs[0].id;
    for (const [res, missing] of [
      [await other.get(`/surveys/${surveyId}`), await other.get(`/surveys/${MISSING}`)],
      [
        await other.patch(`/surveys/${surveyId}`, { body: { name: 'x' } }),
        await other.patch(`/surveys/${MISSING}`, { body: { name: 'x' } }),
      ],
      [await other.delete(`/surveys/${surveyId}`), await other.delete(`/surveys/${MISSING}`)],
      [await other.get(`/surveys/${surveyId}/versions/${versionId}`), await other.get(`/surveys/${MISSING}/versions/${MISSING}`)],
      [
        await other.put(`/surveys/${surveyId}/versions/${versionId}`, {
          body: { definition: routedDefinition() },
          headers: { 'If-Match': '"2"' },
        }),
        await other.put(`/surveys/${MISSING}/versions/${MISSING}`, {
          body: { definition: routedDefinition() },
          headers: { 'If-Match': '"2"' },
        }),
      ],
      [
        await other.post(`/surveys/${surveyId}/publish`, { body: { versionId } }),
        await other.post(`/surveys/${MISSING}/publish`, { body: { versionId } }),
      ],
      [
        await other.post(`/surveys/${surveyId}/versions/${versionId}/simulate`, { body: { answers: {} } }),
        await other.post(`/surveys/${MISSING}/versions/${MISSING}/simulate`, { body: { answers: {} } }),
      ],
      [
        await other.patch(`/surveys/designs/${designId}`, { body: { name: 'x' } }),
        await other.patch(`/surveys/designs/${MISSING}`, { body: { name: 'x' } }),
      ],
    ] as [ApiResponse, ApiResponse][]) {
      expectErrorEnvelope(res, 404, 'not_found');
      expect(res.body).toEqual(missing.body);
    }
    // A design of another workspace is not a design here.
    const mine = (await other.get('/surveys/designs')).body.designs[0].id;
    const res = await api.patch(`/surveys/${surveyId}`, { body: { designId: mine } });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(res.body.issues).toEqual([{ path: 'body.designId', message: expect.any(String) }]);
    expect((await api.get(`/surveys/${surveyId}`)).body.survey.name).toBe('Onboarding survey');
  });
});

describe('targeting', () => {
  it('checks targeting rules against the catalog set with cxctl audience set', async () => {
    const { survey } = await newSurvey(api);
    const catalog = {
      attributes: [
        { key: 'plan', type: 'string', values: ['free', 'pro'] },
        { key: 'seats', type: 'number' },
        { key: 'signedUpAt', type: 'date' },
        { key: 'beta', type: 'boolean' },
      ],
    };
    const set = await cxctl('audience', 'set', ws.slug, '--file', audienceFile(catalog));
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ attributes: 4 });
    const listed = await api.get('/surveys/audience-attributes');
    expect(listed.body).toEqual({ ok: true, attributes: catalog.attributes });
    expect(dynamoDbCalls(listed)).toBe(AUTH_CALLS + 1);

    const rules = {
      filters: {
        all: [
          { attribute: 'plan', operator: 'equals', value: 'pro' },
          { attribute: 'seats', operator: 'atLeast', value: 5 },
        ],
      },
    };
    const ok = await api.patch(`/surveys/${survey.id}`, { body: { targetingRules: rules } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.survey.targetingRules).toEqual(rules);
    expect((await api.get(`/surveys/${survey.id}`)).body.survey.targetingRules).toEqual(rules);

    const bad = await api.patch(`/surveys/${survey.id}`, {
      body: {
        targetingRules: {
          filters: {
            all: [
              { attribute: 'country', operator: 'equals', value: 'SA' },
              { attribute: 'beta', operator: 'greaterThan', value: 1 },
              { attribute: 'plan', operator: 'equals', value: 'gold' },
              { attribute: 'signedUpAt', operator: 'after', value: 'last week' },
            ],
          },
        },
      },
    });
    expectErrorEnvelope(bad, 400, 'invalid_body');
    expect(bad.body.issues.map((issue: { path: string }) => issue.path)).toEqual([
      'body.targetingRules.filters.all.0.attribute',
      'body.targetingRules.filters.all.1.operator',
      'body.targetingRules.filters.all.2.value',
      'body.targetingRules.filters.all.3.value',
    ]);
    const contradiction = await api.patch(`/surveys/${survey.id}`, {
      body: {
        targetingRules: {
          filters: {
            all: [
              { attribute: 'seats', operator: 'greaterThan', value: 8 },
              { attribute: 'seats', operator: 'lessThan', value: 3 },
            ],
          },
        },
      },
    });
    expectErrorEnvelope(contradiction, 400, 'invalid_body');
    expect(contradiction.text).toContain('target no one');
    let deep: unknown = { attribute: 'beta', operator: 'isAnswered' };
    for (let i = 0; i < 6; i++) deep = { any: [deep] };
    expectErrorEnvelope(await api.patch(`/surveys/${survey.id}`, { body: { targetingRules: { filters: deep } } }), 400, 'invalid_body');
    const many = { any: Array.from({ length: 51 }, () => ({ attribute: 'beta', operator: 'isAnswered' })) };
    expectErrorEnvelope(await api.patch(`/surveys/${survey.id}`, { body: { targetingRules: { filters: many } } }), 400, 'invalid_body');
    // None of the refused rules was stored.
    expect((await api.get(`/surveys/${survey.id}`)).body.survey.targetingRules).toEqual(rules);
  });

  it('cxctl refuses a malformed catalog and an unknown workspace', async () => {
    const malformed = await cxctl('audience', 'set', ws.slug, '--file', audienceFile({ attributes: [{ key: 'x', type: 'colour' }] }));
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('Invalid audience file');
    const unknown = await cxctl('audience', 'set', 'no-such-workspace-x', '--file', audienceFile({ attributes: [] }));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No workspace');
  });
});

describe('concurrency', () => {
  it('lets exactly one of two concurrent saves of a draft win; the other gets 409 with the current ETag', async () => {
    const { surveyId, versionId, version } = await surveyWithDefinition(api);
    const path = `/surveys/${surveyId}/versions/${versionId}`;
    const first = routedDefinition();
    first.endings[0]!.headline = { en: 'First' };
    const second = routedDefinition();
    second.endings[0]!.headline = { en: 'Second' };
    const ifMatch = { 'If-Match': `"${version.revision}"` };
    const results = await Promise.all([
      api.put(path, { body: { definition: first }, headers: ifMatch }),
      api.put(path, { body: { definition: second }, headers: ifMatch }),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    const loser = results.find((res) => res.status === 409)!;
    const winner = results.find((res) => res.status === 200)!;
    expectErrorEnvelope(loser, 409, 'version_conflict');
    expect(loser.headers.get('etag')).toBe(`"${version.revision + 1}"`);
    const stored = await api.get(path);
    expect(stored.body.version.definition).toEqual(winner.body.version.definition);
  });

  it('refuses a PATCH naming an old ETag and keeps the survey as it was', async () => {
    const { survey } = await newSurvey(api);
    const renamed = await api.patch(`/surveys/${survey.id}`, { body: { name: 'Renamed', nameAr: 'معاد' }, headers: { 'If-Match': '"1"' } });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('etag')).toBe('"2"');
    expect(dynamoDbCalls(renamed)).toBe(AUTH_CALLS + 1);
    const stale = await api.patch(`/surveys/${survey.id}`, { body: { name: 'Stale' }, headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(stale, 409, 'version_conflict');
    expect((await api.get(`/surveys/${survey.id}`)).body.survey).toMatchObject({ name: 'Renamed', nameAr: 'معاد', version: 2 });
    expectErrorEnvelope(await api.patch(`/surveys/${survey.id}`, { body: { status: 'published' } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.patch(`/surveys/${survey.id}`, { body: { themePrimaryColor: 'blue' } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.patch(`/surveys/${survey.id}`, { body: { themeLogoUrl: 'ftp://x' } }), 400, 'invalid_body');
  });
});

describe('GET /surveys', () => {
  it('pages newest first with totals, filters by status and omits archived surveys', async () => {
    const own = clientFor(await newWorkspace('surveys-list'));
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await newSurvey(own, `Survey ${i}`)).survey.id);
    const page = await own.get('/surveys?limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body.surveys.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    expect(page.body.pagination).toEqual({ limit: 2, offset: 1, total: 4, hasMore: true, nextCursor: expect.any(String) });
    expect(dynamoDbCalls(page)).toBe(AUTH_CALLS + 1);

    await own.delete(`/surveys/${ids[3]}`);
    const definition = routedDefinition();
    const version = (await own.get(`/surveys/${ids[0]}`)).body.versions[0].id;
    await own.put(`/surveys/${ids[0]}/versions/${version}`, { body: { definition }, headers: { 'If-Match': '"1"' } });
    expect((await own.post(`/surveys/${ids[0]}/publish`, { body: { versionId: version } })).status).toBe(200);

    const all = await own.get('/surveys');
    expect(all.body.surveys.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(all.body.pagination).toEqual({ limit: 25, offset: 0, total: 3, hasMore: false, nextCursor: null });
    const published = await own.get('/surveys?status=published');
    expect(published.body.surveys.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
    expect(published.body.pagination.total).toBe(1);
    expect((await own.get('/surveys?status=draft')).body.pagination.total).toBe(2);
    const past = await own.get('/surveys?offset=2147483647&limit=100');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({
      ok: true,
      surveys: [],
      pagination: { limit: 100, offset: 2147483647, total: 3, hasMore: false, nextCursor: null },
    });
    expectErrorEnvelope(await own.get('/surveys?status=archived'), 400, 'invalid_query');
    expectErrorEnvelope(await own.get('/surveys?limit=0'), 400, 'invalid_query');
    expectErrorEnvelope(await own.get('/surveys/not-a-uuid'), 400, 'invalid_path');
  });
});
