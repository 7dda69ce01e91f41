/** Surveys over HTTP: create → design → questions with routing → simulate → publish → change → breaking changes. */
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { surveyVersionEntity } from '../../lib/surveys/entities.ts';
import {
  AUTH_CALLS,
  adminStore,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newWorkspace,
  sandbox,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { newSurvey, routedDefinition, surveyWithDefinition } from '../support/surveys.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('surveys-life');
  api = clientFor(ws);
});

/** The key check reads the workspace and the key: every operation's own calls come on top. */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /surveys', () => {
  it('creates a draft survey with its first draft version and the default design', async () => {
    const res = await api.post('/surveys', { body: { name: 'استبيان', language: 'ar' } });
    expect(res.status).toBe(200);
    const { survey, version, designs } = res.body;
    expect(survey).toEqual({
      id: expect.stringMatching(UUID),
      name: 'استبيان',
      nameAr: null,
      language: 'ar',
      version: 1,
      status: 'draft',
      themeLogoUrl: null,
      themePrimaryColor: null,
      designId: designs[0].id,
      targetingRules: null,
      publishedVersionId: null,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
      publishedAt: null,
      archivedAt: null,
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(version).toMatchObject({
      surveyId: survey.id,
      number: 1,
      status: 'draft',
      revision: 1,
      basedOnVersionId: null,
      createdBy: ws.keyId,
    });
    expect(version.definition.languages).toEqual(['ar']);
    expect(version.issues).toEqual([{ severity: 'error', code: 'no_questions', message: expect.any(String), path: '/questions' }]);
    expect(designs).toEqual([expect.objectContaining({ name: 'Default', isDefault: true, primaryColor: '#1F6FEB' })]);

    const second = await api.post('/surveys', { body: { name: 'Second' } });
    expect(second.body.designs).toEqual(designs);
    expect(second.body.survey.language).toBe('en');
  });

  it('rejects a missing or blank name and an unknown language', async () => {
    expectErrorEnvelope(await api.post('/surveys', { body: {} }), 400, 'invalid_body');
    expectErrorEnvelope(await api.post('/surveys', { body: { name: '   ' } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.post('/surveys', { body: { name: 'x', language: 'fr' } }), 400, 'invalid_body');
    expectErrorEnvelope(await api.post('/surveys', { body: { name: 'x'.repeat(201) } }), 400, 'invalid_body');
  });

  it('replays a repeated Idempotency-Key and refuses it with another body', async () => {
    const headers = { 'Idempotency-Key': `survey-${Date.now()}` };
    const first = await api.post('/surveys', { body: { name: 'Once' }, headers });
    const again = await api.post('/surveys', { body: { name: 'Once' }, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.survey.id).toBe(first.body.survey.id);
    expectErrorEnvelope(await api.post('/surveys', { body: { name: 'Other' }, headers }), 409, 'idempotency_key_reused');
  });
});

describe('designs', () => {
  it('creates, lists and changes designs; a survey may use one of this workspace', async () => {
    const { survey } = await newSurvey(api);
    const created = await api.post('/surveys/designs', {
      body: {
        name: 'Brand',
        primaryColor: '#112233',
        backgroundColor: '#FFFFFF',
        logoUrl: 'https://cdn.example.com/logo.png',
        font: 'Inter',
      },
    });
    expect(created.status).toBe(200);
    expect(created.body.design).toEqual({
      id: expect.stringMatching(UUID),
      name: 'Brand',
      primaryColor: '#112233',
      backgroundColor: '#FFFFFF',
      logoUrl: 'https://cdn.example.com/logo.png',
      font: 'Inter',
      isDefault: false,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    const designId = created.body.design.id;
    const listed = await api.get('/surveys/designs');
    expect(listed.body.designs.map((design: { name: string }) => design.name)).toEqual(['Default', 'Brand']);
    expect(dynamoDbCalls(listed)).toBe(AUTH_CALLS + 1);

    const changed = await api.patch(`/surveys/designs/${designId}`, { body: { primaryColor: '#445566', font: null } });
    expect(changed.status).toBe(200);
    expect(changed.body.design).toMatchObject({ primaryColor: '#445566', font: null, name: 'Brand' });

    const used = await api.patch(`/surveys/${survey.id}`, { body: { designId } });
    expect(used.status).toBe(200);
    expect(used.body.survey.designId).toBe(designId);
  });

  it('creates a design and a version once per Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `design-${Date.now()}` };
    const body = { name: 'Once', primaryColor: '#101010' };
    const first = await api.post('/surveys/designs', { body, headers });
    const again = await api.post('/surveys/designs', { body, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.design).toEqual(first.body.design);
    expect((await api.get('/surveys/designs')).body.designs.filter((design: { name: string }) => design.name === 'Once')).toHaveLength(1);
    expectErrorEnvelope(await api.post('/surveys/designs', { body: { ...body, name: 'Twice' }, headers }), 409, 'idempotency_key_reused');

    const { surveyId } = await surveyWithDefinition(api);
    const versionHeaders = { 'Idempotency-Key': `version-${Date.now()}` };
    const made = await api.post(`/surveys/${surveyId}/versions`, { body: {}, headers: versionHeaders });
    const replayed = await api.post(`/surveys/${surveyId}/versions`, { body: {}, headers: versionHeaders });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.version.id).toBe(made.body.version.id);
    expect((await api.get(`/surveys/${surveyId}`)).body.versions).toHaveLength(2);
  });

  it('rejects bad colours and URLs, and an unknown design', async () => {
    expectErrorEnvelope(await api.post('/surveys/designs', { body: { name: 'x', primaryColor: 'red' } }), 400, 'invalid_body');
    expectErrorEnvelope(
      await api.post('/surveys/designs', { body: { name: 'x', primaryColor: '#112233', logoUrl: 'http://x.example' } }),
      400,
      'invalid_body',
    );
    expectErrorEnvelope(
      await api.patch('/surveys/designs/0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b', { body: { name: 'y' } }),
      404,
      'not_found',
    );
  });
});

describe('versions, simulation and publishing', () => {
  it('saves questions with routing, returns issues, simulates, publishes, and warns about breaking changes', async () => {
    const { survey, version } = await newSurvey(api);
    const base = `/surveys/${survey.id}/versions/${version.id}`;

    // Save without If-Match: refused.
    expectErrorEnvelope(await api.put(base, { body: { definition: routedDefinition() } }), 400, 'if_match_required');

    const saved = await api.put(base, { body: { definition: routedDefinition() }, headers: { 'If-Match': '"1"' } });
    expect(saved.status).toBe(200);
    expect(saved.body.version.revision).toBe(2);
    expect(saved.headers.get('etag')).toBe('"2"');
    // `channels` is required and offers only what `favourite` has, so the filter never empties it.
    expect(saved.body.version.issues).toEqual([]);
    expect(dynamoDbCalls(saved)).toBe(AUTH_CALLS + 1);

    const read = await api.get(base);
    expect(read.status).toBe(200);
    expect(read.body.version.definition).toEqual(routedDefinition());
    expect(read.headers.get('etag')).toBe('"2"');
    expect(dynamoDbCalls(read)).toBe(AUTH_CALLS + 1);

    const run = await api.post(`${base}/simulate`, {
      body: { answers: { plan: 'pro', channels: ['chat', 'api'], favourite: 'api', score: 4 } },
    });
    expect(run.status).toBe(200);
    expect(run.body.run).toEqual({
      path: ['plan', 'channels', 'favourite', 'score', 'why-low'],
      skipped: [],
      options: { plan: ['free', 'pro', 'team'], channels: ['chat', 'mail', 'api'], favourite: ['chat', 'api'] },
      ending: 'thanks',
      problems: [],
    });
    expect(dynamoDbCalls(run)).toBe(AUTH_CALLS + 1);
    const team = await api.post(`${base}/simulate`, { body: { answers: { plan: 'team', score: 9 } } });
    expect(team.body.run).toMatchObject({
      path: ['plan'],
      ending: 'team-thanks',
      problems: [{ questionId: 'score', code: 'answer_not_shown' }],
    });

    const published = await api.post(`/surveys/${survey.id}/publish`, { body: { versionId: version.id } });
    expect(published.status, published.text).toBe(200);
    expect(published.body.survey).toMatchObject({
      status: 'published',
      publishedVersionId: version.id,
      publishedAt: expect.stringMatching(ISO_UTC),
    });
    expect(published.body.version).toMatchObject({ status: 'published', publishedAt: expect.stringMatching(ISO_UTC) });

    // Published versions are immutable.
    expectErrorEnvelope(
      await api.put(base, { body: { definition: routedDefinition() }, headers: { 'If-Match': '"2"' } }),
      409,
      'version_locked',
    );
    expectErrorEnvelope(await api.delete(base), 409, 'version_locked');

    // A new draft from the published version, with an option removed and a question retyped.
    const draft = await api.post(`/surveys/${survey.id}/versions`, { body: {} });
    expect(draft.status).toBe(200);
    expect(draft.body.version).toMatchObject({ number: 2, status: 'draft', revision: 1, basedOnVersionId: version.id });
    const changed = routedDefinition();
    changed.questions[0]!.options!.pop();
    changed.questions[0]!.routes = [];
    (changed.questions[4] as { type: string }).type = 'date';
    (changed.questions[4] as { visibleIf?: unknown }).visibleIf = undefined;
    const draftPath = `/surveys/${survey.id}/versions/${draft.body.version.id}`;
    const savedDraft = await api.put(draftPath, { body: { definition: changed }, headers: { 'If-Match': '"1"' } });
    expect(savedDraft.status, savedDraft.text).toBe(200);

    const refused = await api.post(`/surveys/${survey.id}/publish`, { body: { versionId: draft.body.version.id } });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      ok: false,
      error: 'breaking_changes',
      message: expect.any(String),
      changes: [
        { kind: 'option_removed', questionId: 'plan', optionId: 'team', detail: expect.any(String) },
        { kind: 'type_changed', questionId: 'why-low', detail: expect.any(String) },
      ],
    });
    const unchanged = await api.get(`/surveys/${survey.id}`);
    expect(unchanged.body.survey.publishedVersionId).toBe(version.id);

    const acknowledged = await api.post(`/surveys/${survey.id}/publish`, {
      body: { versionId: draft.body.version.id, acknowledgeBreakingChanges: true },
    });
    expect(acknowledged.status, acknowledged.text).toBe(200);
    expect(acknowledged.body.survey.publishedVersionId).toBe(draft.body.version.id);

    const after = await api.get(`/surveys/${survey.id}`);
    expect(after.body.versions.map((v: { number: number; status: string }) => `${v.number}:${v.status}`)).toEqual([
      '2:published',
      '1:superseded',
    ]);
    expect(dynamoDbCalls(after)).toBe(AUTH_CALLS + 1);
    expectErrorEnvelope(await api.post(`/surveys/${survey.id}/publish`, { body: { versionId: version.id } }), 409, 'version_locked');
  });

  it("refuses a definition without the survey's language and keeps the draft", async () => {
    const { surveyId, versionId, version } = await surveyWithDefinition(api);
    const res = await api.put(`/surveys/${surveyId}/versions/${versionId}`, {
      body: { definition: { ...routedDefinition(), languages: ['ar'] } },
      headers: { 'If-Match': `"${version.revision}"` },
    });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(res.body.issues).toEqual([{ path: 'body.definition.languages', message: "must include en, the survey's language" }]);
    expect((await api.get(`/surveys/${surveyId}/versions/${versionId}`)).body.version.revision).toBe(version.revision);
  });

  it('refuses to publish a version with errors, listing them', async () => {
    const definition = routedDefinition();
    definition.questions[3]!.visibleIf = { question: 'why-low', operator: 'isAnswered' } as never;
    const { surveyId, versionId, version } = await surveyWithDefinition(api, definition);
    expect(version.issues).toContainEqual(expect.objectContaining({ severity: 'error', code: 'reference_not_earlier' }));
    const res = await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } });
    expectErrorEnvelope(res, 400, 'invalid_definition');
    expect(res.body.issues).toEqual([
      expect.objectContaining({ severity: 'error', code: 'reference_not_earlier', path: '/questions/3/visibleIf/question' }),
    ]);
  });

  it('closes a published survey and reopens it by publishing again', async () => {
    const { surveyId, versionId } = await surveyWithDefinition(api);
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/close`), 400, 'invalid_state');
    await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } });
    const closed = await api.post(`/surveys/${surveyId}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body.survey.status).toBe('closed');
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/close`), 400, 'invalid_state');
    const reopened = await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } });
    expect(reopened.status).toBe(200);
    expect(reopened.body.survey.status).toBe('published');
  });

  it('discards a draft; a second draft copies the one named', async () => {
    const { surveyId, versionId } = await surveyWithDefinition(api);
    const copy = await api.post(`/surveys/${surveyId}/versions`, { body: { fromVersionId: versionId } });
    expect(copy.body.version.definition).toEqual(routedDefinition());
    const discarded = await api.delete(`/surveys/${surveyId}/versions/${copy.body.version.id}`);
    expect(discarded.status).toBe(200);
    expect(discarded.body).toEqual({ ok: true });
    expectErrorEnvelope(await api.get(`/surveys/${surveyId}/versions/${copy.body.version.id}`), 404, 'not_found');
    const survey = await api.get(`/surveys/${surveyId}`);
    expect(survey.body.versions.map((v: { id: string }) => v.id)).toEqual([versionId]);
    expectErrorEnvelope(
      await api.post(`/surveys/${surveyId}/versions`, { body: { fromVersionId: '0190a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b' } }),
      400,
      'invalid_body',
    );
  });
});

describe('POST /surveys/validate', () => {
  it('returns every issue and stores nothing', async () => {
    const definition = routedDefinition();
    definition.questions[0]!.routes = [{ when: { question: 'plan', operator: 'greaterThan', value: 3 }, goTo: 'nowhere' }] as never;
    const res = await api.post('/surveys/validate', { body: { definition } });
    expect(res.status).toBe(200);
    expect(res.body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ severity: 'error', code: 'operator_type_mismatch', path: '/questions/0/routes/0/when/operator' }),
        expect.objectContaining({ severity: 'error', code: 'unknown_target', path: '/questions/0/routes/0/goTo' }),
        expect.objectContaining({ severity: 'warning', code: 'unreachable_ending', path: '/endings/1' }),
      ]),
    );
    expect(dynamoDbCalls(res)).toBe(AUTH_CALLS);
  });

  it('rejects more than 200 questions, depth beyond 5 (400) and more than 1 MB (413)', async () => {
    const many = {
      ...routedDefinition(),
      questions: Array.from({ length: 201 }, (_, i) => ({ id: `q${i}`, type: 'openText', headline: { en: 'q' }, required: false })),
    };
    expectErrorEnvelope(await api.post('/surveys/validate', { body: { definition: many } }), 400, 'invalid_body');
    let deep: unknown = { question: 'plan', operator: 'isAnswered' };
    for (let i = 0; i < 6; i++) deep = { all: [deep] };
    const tooDeep = routedDefinition();
    tooDeep.questions[1]!.visibleIf = deep as never;
    expectErrorEnvelope(await api.post('/surveys/validate', { body: { definition: tooDeep } }), 400, 'invalid_body');
    const huge = {
      ...routedDefinition(),
      questions: Array.from({ length: 200 }, (_, i) => ({
        id: `q${i}`,
        type: 'openText',
        headline: { en: 'x'.repeat(2000), ar: 'ي'.repeat(2000) },
        required: false,
      })),
    };
    expectErrorEnvelope(await api.post('/surveys/validate', { body: { definition: huge } }), 413, 'definition_too_large');
  });
});

describe('stored size', () => {
  it('refuses a definition that does not fit one version even compressed (413) and keeps the draft as it was', async () => {
    const { surveyId, versionId, version } = await surveyWithDefinition(api);
    // Random text does not compress: about 900 KB of it is under the 1 MB cap but over what one item holds.
    const noise = (n: number) => randomBytes(n).toString('base64').slice(0, n);
    const definition = {
      ...routedDefinition(),
      questions: Array.from({ length: 200 }, (_, i) => ({
        id: `q${i}`,
        type: 'openText',
        headline: { en: noise(1500), ar: noise(1500) },
        required: false,
      })),
    };
    const res = await api.put(`/surveys/${surveyId}/versions/${versionId}`, {
      body: { definition },
      headers: { 'If-Match': `"${version.revision}"` },
    });
    expectErrorEnvelope(res, 413, 'definition_too_large');
    const stored = await api.get(`/surveys/${surveyId}/versions/${versionId}`);
    expect(stored.body.version).toMatchObject({ revision: version.revision, definition: routedDefinition() });
  });
});

describe('archive', () => {
  it('archives: omitted from the list, still readable, every write 409', async () => {
    const { surveyId, versionId } = await surveyWithDefinition(api);
    const archived = await api.delete(`/surveys/${surveyId}`);
    expect(archived.status).toBe(200);
    const read = await api.get(`/surveys/${surveyId}`);
    expect(read.body.survey).toMatchObject({ status: 'archived', archivedAt: expect.stringMatching(ISO_UTC) });
    const list = await api.get('/surveys?limit=100');
    expect(list.body.surveys.map((s: { id: string }) => s.id)).not.toContain(surveyId);
    expectErrorEnvelope(await api.patch(`/surveys/${surveyId}`, { body: { name: 'x' } }), 409, 'survey_archived');
    expectErrorEnvelope(
      await api.put(`/surveys/${surveyId}/versions/${versionId}`, {
        body: { definition: routedDefinition() },
        headers: { 'If-Match': '"2"' },
      }),
      409,
      'survey_archived',
    );
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/versions`, { body: {} }), 409, 'survey_archived');
    expectErrorEnvelope(await api.delete(`/surveys/${surveyId}/versions/${versionId}`), 409, 'survey_archived');
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/publish`, { body: { versionId } }), 409, 'survey_archived');
    expectErrorEnvelope(await api.post(`/surveys/${surveyId}/close`), 409, 'survey_archived');
    expectErrorEnvelope(await api.delete(`/surveys/${surveyId}`), 409, 'survey_archived');
    const { Item } = await adminStore().db.send(
      new GetCommand({
        TableName: sandbox.tableName,
        Key: surveyVersionEntity.keys.version(ws.slug, surveyId, versionId),
        ConsistentRead: true,
      }),
    );
    expect(Item?.status).toBe('draft');
  });
});
