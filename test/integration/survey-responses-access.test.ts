/** Survey responses over HTTP: the permission matrix, `surveys:*` never reaching answers, tenant isolation. */
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, PERMISSIONS, type Permission } from '../../lib/platform/permissions.ts';
import { call, clientFor, expectErrorEnvelope, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { publishedSurvey } from '../support/surveys.ts';

const MISSING = '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b';
const answers = { plan: 'pro', channels: ['chat'], favourite: 'chat', score: 9 };

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let surveyId: string;
let responseId: string;

beforeAll(async () => {
  ws = await newWorkspace('responses-access');
  api = clientFor(ws);
  ({ surveyId } = await publishedSurvey(api));
  const created = await api.post(`/surveys/${surveyId}/responses`, {
    body: { answers, finished: false, respondent: { email: 'ana@example.com', externalId: 'ana' } },
  });
  expect(created.status, created.text).toBe(201);
  responseId = created.body.response.id;
});

const operations: { name: string; permission: Permission; method: string; path: (s: string, r: string) => string; body?: unknown }[] = [
  { name: 'submit', permission: 'survey-responses:write', method: 'POST', path: (s) => `/surveys/${s}/responses`, body: { answers } },
  {
    name: 'continue',
    permission: 'survey-responses:write',
    method: 'PATCH',
    path: (s, r) => `/surveys/${s}/responses/${r}`,
    body: { answers: { channels: ['mail'] } },
  },
  { name: 'list', permission: 'survey-responses:read', method: 'GET', path: (s) => `/surveys/${s}/responses` },
  { name: 'read', permission: 'survey-responses:read', method: 'GET', path: (s, r) => `/surveys/${s}/responses/${r}` },
  { name: 'delete', permission: 'survey-responses:delete', method: 'DELETE', path: (s, r) => `/surveys/${s}/responses/${r}` },
  {
    name: 'erase',
    permission: 'survey-responses:delete',
    method: 'POST',
    path: () => '/surveys/responses/erase',
    body: { externalId: 'nobody' },
  },
];

describe('permissions', () => {
  it.each(operations)('$name needs $permission: 403 missing_permission without it, and surveys:* never stands in', async (op) => {
    const without = await newKey(
      ws.slug,
      PERMISSIONS.filter((p) => p !== op.permission),
    );
    const denied = await call(op.method, op.path(surveyId, responseId), {
      host: ws.host,
      key: without.key,
      body: op.body,
      headers: { 'If-Match': '"1"' },
    });
    expectErrorEnvelope(denied, 403, 'missing_permission');
    const only = await newKey(ws.slug, [op.permission]);
    const allowed = await call(op.method, op.path(surveyId, MISSING), {
      host: ws.host,
      key: only.key,
      body: op.body,
      headers: { 'If-Match': '"1"' },
    });
    expect(allowed.status, `${op.name}: ${allowed.text}`).not.toBe(403);
  });

  it('leaves the response untouched by the refused calls, and shows no answer to surveys:read', async () => {
    const read = await api.get(`/surveys/${surveyId}/responses/${responseId}`);
    expect(read.body.response).toMatchObject({ revision: 1, answers });
    const surveysOnly = clientFor({ host: ws.host, key: (await newKey(ws.slug, ['surveys:read', 'surveys:write', 'surveys:delete'])).key });
    expectErrorEnvelope(await surveysOnly.get(`/surveys/${surveyId}/responses`), 403, 'missing_permission');
    const survey = await surveysOnly.get(`/surveys/${surveyId}`);
    expect(survey.status).toBe(200);
    expect(survey.text).not.toContain('ana@example.com');
  });

  it('gives a default read-only key survey-responses:read, and nothing that writes', () => {
    expect(DEFAULT_PERMISSIONS).toContain('survey-responses:read');
    expect(DEFAULT_PERMISSIONS).not.toContain('survey-responses:write');
    expect(DEFAULT_PERMISSIONS).not.toContain('survey-responses:delete');
  });
});

describe('tenant isolation', () => {
  it("answers another workspace's survey and response ids exactly like ids that never existed", async () => {
    const other = clientFor(await newWorkspace('responses-other'));
    for (const [res, missing] of [
      [await other.get(`/surveys/${surveyId}/responses/${responseId}`), await other.get(`/surveys/${MISSING}/responses/${MISSING}`)],
      [await other.delete(`/surveys/${surveyId}/responses/${responseId}`), await other.delete(`/surveys/${MISSING}/responses/${MISSING}`)],
      [
        await other.patch(`/surveys/${surveyId}/responses/${responseId}`, { body: { answers: {} }, headers: { 'If-Match': '"1"' } }),
        await other.patch(`/surveys/${MISSING}/responses/${MISSING}`, { body: { answers: {} }, headers: { 'If-Match': '"1"' } }),
      ],
      [
        await other.post(`/surveys/${surveyId}/responses`, { body: { answers } }),
        await other.post(`/surveys/${MISSING}/responses`, { body: { answers } }),
      ],
    ]) {
      expectErrorEnvelope(res!, 404, 'not_found');
      expect(res!.body).toEqual(missing!.body);
    }
    const list = await other.get(`/surveys/${surveyId}/responses`);
    expect(list.body).toEqual((await other.get(`/surveys/${MISSING}/responses`)).body);
    expectErrorEnvelope(list, 404, 'not_found');
    // Erasing the same respondent elsewhere touches nothing here.
    expect((await other.post('/surveys/responses/erase', { body: { email: 'ana@example.com' } })).body).toEqual({
      ok: true,
      erased: 0,
      hasMore: false,
    });
    expect((await api.get(`/surveys/${surveyId}/responses/${responseId}`)).status).toBe(200);
    // The response of one survey is not found under another survey's id.
    const { surveyId: second } = await publishedSurvey(api);
    expectErrorEnvelope(await api.get(`/surveys/${second}/responses/${responseId}`), 404, 'not_found');
  });
});
