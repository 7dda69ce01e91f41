/** Journeys themselves over HTTP: create, read, list, rename, archive, micro journeys, tenancy and costs. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { journeyEntity } from '../../lib/journeys/entities.ts';
import {
  adminStore,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newWorkspace,
  sandbox,
  type TestWorkspace,
} from '../support/fixtures.ts';
import {
  type Api,
  cleanContent,
  etagOf,
  insideOneRateLimitWindow,
  makeJourney,
  makeMicroJourney,
  publish,
  save,
} from '../support/journeys.ts';

let ws: TestWorkspace;
let api: Api;

beforeAll(async () => {
  ws = await newWorkspace('journeys-crud');
  api = clientFor(ws);
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('POST /journeys', () => {
  it('creates a macro journey with its first draft, Draft 1, with empty content', async () => {
    const res = await api.post('/journeys', { body: { titleEn: 'Opening an account', titleAr: 'فتح حساب' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      journeyId: expect.stringMatching(UUID),
      version: {
        id: expect.stringMatching(UUID),
        journeyId: res.body.journeyId,
        label: 'Draft 1',
        parentVersionId: null,
        content: { schema: 1, stages: [], rows: [], cells: {} },
        createdBy: ws.keyId,
        createdAt: expect.stringMatching(ISO_UTC),
        updatedAt: expect.stringMatching(ISO_UTC),
        publishedAt: null,
        revision: 1,
        sourceRevision: null,
        legacyOrigin: null,
        diagnostics: [],
      },
    });
    expect(res.headers.get('etag')).toBe('"1"');
    const journey = await api.get(`/journeys/${res.body.journeyId}`);
    expect(journey.body.journey).toEqual({
      id: res.body.journeyId,
      kind: 'macro',
      titleEn: 'Opening an account',
      titleAr: 'فتح حساب',
      parentJourneyId: null,
      stageId: null,
      publishedVersionId: null,
      versionCount: 1,
      version: 1,
      createdAt: res.body.version.createdAt,
      updatedAt: res.body.version.createdAt,
      archivedAt: null,
    });
  });

  it('takes `title` as an alias of titleEn, or an Arabic title alone', async () => {
    const alias = await api.post('/journeys', { body: { title: 'Alias' } });
    expect((await api.get(`/journeys/${alias.body.journeyId}`)).body.journey).toMatchObject({ titleEn: 'Alias', titleAr: null });
    const arabic = await api.post('/journeys', { body: { titleAr: 'عربي' } });
    expect((await api.get(`/journeys/${arabic.body.journeyId}`)).body.journey).toMatchObject({ titleEn: null, titleAr: 'عربي' });
  });

  it('refuses no title, `title` with titleEn, long titles and unknown fields with 400 invalid_body', async () => {
    for (const body of [
      {},
      { title: 'a', titleEn: 'b' },
      { titleEn: 'x'.repeat(201) },
      { titleEn: 'ok', colour: 'red' },
      { titleEn: '' },
    ]) {
      const res = await api.post('/journeys', { body });
      expectErrorEnvelope(res, 400, 'invalid_body');
    }
    // 200 characters of Arabic (400 bytes) is within the limit: lengths count characters.
    expect((await api.post('/journeys', { body: { titleAr: 'ع'.repeat(200) } })).status).toBe(200);
  });

  it('honours Idempotency-Key: the same request returns the first answer, another body is a 409', async () => {
    const headers = { 'Idempotency-Key': `create-${Date.now()}` };
    const first = await api.post('/journeys', { body: { titleEn: 'Once' }, headers });
    const again = await api.post('/journeys', { body: { titleEn: 'Once' }, headers });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectErrorEnvelope(await api.post('/journeys', { body: { titleEn: 'Twice' }, headers }), 409, 'idempotency_key_reused');
  });
});

describe('GET /journeys', () => {
  it('lists newest first with the total, filters by kind, and drops archived journeys from list and total', async () => {
    const own = await newWorkspace('journeys-list');
    const client = clientFor(own);
    const first = await makeJourney(client, 'First');
    const second = await makeJourney(client, 'Second');
    const micro = await makeMicroJourney(client, first.journeyId, 'Zoom');

    const all = await client.get('/journeys');
    expect(all.status).toBe(200);
    expect(all.body.journeys.map((j: { id: string }) => j.id)).toEqual([micro.journeyId, second.journeyId, first.journeyId]);
    expect(all.body.pagination).toEqual({ limit: 25, offset: 0, total: 3, hasMore: false, nextCursor: null });
    expect(Object.keys(all.body.journeys[0]).sort()).toEqual([
      'archivedAt',
      'createdAt',
      'id',
      'kind',
      'parentJourneyId',
      'publishedVersionId',
      'stageId',
      'titleAr',
      'titleEn',
      'updatedAt',
      'version',
      'versionCount',
    ]);

    const macros = await client.get('/journeys?kind=macro&limit=1');
    expect(macros.body.journeys.map((j: { id: string }) => j.id)).toEqual([second.journeyId]);
    expect(macros.body.pagination).toEqual({ limit: 1, offset: 0, total: 2, hasMore: true, nextCursor: expect.any(String) });
    const nextMacro = await client.get('/journeys?kind=macro&limit=1&offset=1');
    expect(nextMacro.body.journeys.map((j: { id: string }) => j.id)).toEqual([first.journeyId]);
    expect(nextMacro.body.pagination.hasMore).toBe(false);
    expect((await client.get('/journeys?kind=micro')).body.pagination.total).toBe(1);

    expect((await client.delete(`/journeys/${second.journeyId}`)).status).toBe(200);
    const after = await client.get('/journeys');
    expect(after.body.journeys.map((j: { id: string }) => j.id)).toEqual([micro.journeyId, first.journeyId]);
    expect(after.body.pagination.total).toBe(2);
    expect((await client.get('/journeys?kind=macro')).body.pagination.total).toBe(1);
  });

  it('answers the whole offset range and rejects bad paging with 400 invalid_query', async () => {
    const far = await api.get('/journeys?offset=2147483647&limit=100');
    expect(far.status).toBe(200);
    expect(far.body.journeys).toEqual([]);
    expect(far.body.pagination.hasMore).toBe(false);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'offset=2147483648', 'kind=other', 'limit=1e2', 'colour=red']) {
      expectErrorEnvelope(await api.get(`/journeys?${query}`), 400, 'invalid_query');
    }
  });

  it('is empty with a total of 0 in a workspace that never made one', async () => {
    const empty = clientFor(await newWorkspace('journeys-empty'));
    expect((await empty.get('/journeys')).body).toEqual({
      ok: true,
      journeys: [],
      pagination: { limit: 25, offset: 0, total: 0, hasMore: false, nextCursor: null },
    });
  });
});

describe('GET and PATCH /journeys/{journeyId}', () => {
  it('renames with If-Match, bumps the version, and refuses a stale If-Match with the current ETag', async () => {
    const { journeyId } = await makeJourney(api);
    const read = await api.get(`/journeys/${journeyId}`);
    expect(read.headers.get('etag')).toBe('"1"');
    const renamed = await api.patch(`/journeys/${journeyId}`, {
      body: { titleEn: 'Renamed', titleAr: null },
      headers: { 'If-Match': etagOf(read) },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.journey).toMatchObject({ titleEn: 'Renamed', titleAr: null, version: 2 });
    expect(renamed.headers.get('etag')).toBe('"2"');
    const stale = await api.patch(`/journeys/${journeyId}`, { body: { titleEn: 'Again' }, headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(stale, 409, 'version_conflict');
    expect(stale.headers.get('etag')).toBe('"2"');
    expect((await api.get(`/journeys/${journeyId}`)).body.journey.titleEn).toBe('Renamed');
  });

  it('answers an empty patch with the journey as it is: 200, same version, nothing written', async () => {
    const { journeyId } = await makeJourney(api);
    const res = await api.patch(`/journeys/${journeyId}`, { body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body.journey).toMatchObject({ id: journeyId, titleEn: 'Onboarding', version: 1 });
    expect(res.headers.get('etag')).toBe('"1"');
    const withStaleIfMatch = await api.patch(`/journeys/${journeyId}`, { body: {}, headers: { 'If-Match': '"7"' } });
    expectErrorEnvelope(withStaleIfMatch, 409, 'version_conflict');
    expect(withStaleIfMatch.headers.get('etag')).toBe('"1"');
    expect((await api.get(`/journeys/${journeyId}`)).headers.get('etag')).toBe('"1"');
  });

  it('keeps at least one title', async () => {
    const { journeyId } = await makeJourney(api);
    expectErrorEnvelope(await api.patch(`/journeys/${journeyId}`, { body: { titleEn: null, titleAr: null } }), 400, 'invalid_body');
    expect((await api.patch(`/journeys/${journeyId}`, { body: { titleEn: null } })).body.journey).toMatchObject({
      titleEn: null,
      titleAr: 'رحلة',
    });
    expectErrorEnvelope(await api.patch(`/journeys/${journeyId}`, { body: { titleAr: null } }), 400, 'invalid_body');
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expectErrorEnvelope(await api.get('/journeys/0190f4a2-7c1e-7000-8000-000000000000'), 404, 'not_found');
    expectErrorEnvelope(await api.get('/journeys/not-a-uuid'), 400, 'invalid_path');
    expectErrorEnvelope(await api.patch('/journeys/0190f4a2-7c1e-7000-8000-000000000000', { body: { titleEn: 'x' } }), 404, 'not_found');
  });
});

describe('DELETE /journeys/{journeyId}', () => {
  it('archives: still readable with archivedAt, versions kept, and every later write is 409 journey_archived', async () => {
    const made = await makeJourney(api);
    const res = await api.delete(`/journeys/${made.journeyId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const journey = await api.get(`/journeys/${made.journeyId}`);
    expect(journey.body.journey.archivedAt).toMatch(ISO_UTC);
    expect((await api.get(`/journeys/${made.journeyId}/versions/${made.versionId}`)).status).toBe(200);
    expect((await api.get(`/journeys/${made.journeyId}/versions`)).body.versions).toHaveLength(1);

    const path = `/journeys/${made.journeyId}/versions/${made.versionId}`;
    for (const write of [
      api.patch(`/journeys/${made.journeyId}`, { body: { titleEn: 'x' } }),
      api.delete(`/journeys/${made.journeyId}`),
      api.post(`/journeys/${made.journeyId}/micro-journeys`, { body: { title: 'x' } }),
      api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } }),
      api.patch(path, { body: { label: 'x' } }),
      api.put(`${path}/content`, { body: { content: cleanContent() }, headers: { 'If-Match': '"1"' } }),
      api.post(`${path}/publish`, { headers: { 'If-Match': '"1"' } }),
      api.delete(path),
    ]) {
      expectErrorEnvelope(await write, 409, 'journey_archived');
    }
  });

  it("is refused with 409 journey_in_use while another journey's published version pairs it, and allowed once that journey is archived", async () => {
    const macro = await makeJourney(api);
    const micro = await makeMicroJourney(api, macro.journeyId);
    expect((await publish(api, micro)).status).toBe(200);
    expect((await save(api, macro, cleanContent([{ journeyId: micro.journeyId }]))).status).toBe(200);
    expect((await publish(api, macro)).status).toBe(200);

    expectErrorEnvelope(await api.delete(`/journeys/${micro.journeyId}`), 409, 'journey_in_use');
    expect((await api.get(`/journeys/${micro.journeyId}`)).body.journey.archivedAt).toBeNull();
    expect((await api.delete(`/journeys/${macro.journeyId}`)).status).toBe(200);
    expect((await api.delete(`/journeys/${micro.journeyId}`)).status).toBe(200);
  });

  it('lets a micro journey go once the journey pairing it publishes a version without the pair', async () => {
    const macro = await makeJourney(api);
    const micro = await makeMicroJourney(api, macro.journeyId);
    expect((await publish(api, micro)).status).toBe(200);
    expect((await save(api, macro, cleanContent([{ journeyId: micro.journeyId }]))).status).toBe(200);
    expect((await publish(api, macro)).status).toBe(200);
    expectErrorEnvelope(await api.delete(`/journeys/${micro.journeyId}`), 409, 'journey_in_use');

    const branch = await api.post(`/journeys/${macro.journeyId}/versions`, { body: { fromVersionId: macro.versionId } });
    const draft = { journeyId: macro.journeyId, versionId: branch.body.version.id };
    expect((await save(api, draft, cleanContent())).status).toBe(200);
    expect((await publish(api, draft)).status).toBe(200);
    expect((await api.delete(`/journeys/${micro.journeyId}`)).status).toBe(200);
  });

  it('needs journeys:delete, which write keys do not imply', async () => {
    const { journeyId } = await makeJourney(api);
    const { newKey } = await import('../support/fixtures.ts');
    const writer = await newKey(ws.slug, ['journeys:read', 'journeys:write']);
    expectErrorEnvelope(await clientFor({ host: ws.host, key: writer.key }).delete(`/journeys/${journeyId}`), 403, 'missing_permission');
  });
});

describe('POST /journeys/{journeyId}/micro-journeys', () => {
  it('creates a micro journey of that journey, with stageId, and micro journeys of micro journeys', async () => {
    const macro = await makeJourney(api);
    const res = await api.post(`/journeys/${macro.journeyId}/micro-journeys`, { body: { title: 'Checkout', stageId: 'buy' } });
    expect(res.status).toBe(200);
    expect(res.body.version).toMatchObject({ label: 'Draft 1', revision: 1, journeyId: res.body.journeyId });
    const micro = (await api.get(`/journeys/${res.body.journeyId}`)).body.journey;
    expect(micro).toMatchObject({ kind: 'micro', titleEn: 'Checkout', parentJourneyId: macro.journeyId, stageId: 'buy' });
    const nested = await api.post(`/journeys/${res.body.journeyId}/micro-journeys`, { body: { title: 'Card entry' } });
    expect((await api.get(`/journeys/${nested.body.journeyId}`)).body.journey).toMatchObject({
      kind: 'micro',
      parentJourneyId: res.body.journeyId,
      stageId: null,
    });
  });

  it('answers 404 for a parent that does not exist and 400 for a bad stageId', async () => {
    expectErrorEnvelope(
      await api.post('/journeys/0190f4a2-7c1e-7000-8000-000000000000/micro-journeys', { body: { title: 'x' } }),
      404,
      'not_found',
    );
    const macro = await makeJourney(api);
    expectErrorEnvelope(
      await api.post(`/journeys/${macro.journeyId}/micro-journeys`, { body: { title: 'x', stageId: 'a b' } }),
      400,
      'invalid_body',
    );
  });
});

describe('tenancy', () => {
  it("answers another workspace's journey and versions exactly like ones that never existed", async () => {
    const made = await makeJourney(api);
    const other = clientFor(await newWorkspace('journeys-other'));
    const unknown = '0190f4a2-7c1e-7000-8000-000000000000';
    const pairs = [
      [other.get(`/journeys/${made.journeyId}`), other.get(`/journeys/${unknown}`)],
      [other.get(`/journeys/${made.journeyId}/versions/${made.versionId}`), other.get(`/journeys/${unknown}/versions/${made.versionId}`)],
      [other.get(`/journeys/${made.journeyId}/versions`), other.get(`/journeys/${unknown}/versions`)],
      [other.patch(`/journeys/${made.journeyId}`, { body: { title: 'x' } }), other.patch(`/journeys/${unknown}`, { body: { title: 'x' } })],
      [other.delete(`/journeys/${made.journeyId}`), other.delete(`/journeys/${unknown}`)],
    ];
    for (const [theirs, never] of pairs) {
      const [a, b] = await Promise.all([theirs, never]);
      expectErrorEnvelope(a!, 404, 'not_found');
      expect(a!.body).toEqual(b!.body);
    }
    const { Item } = await adminStore().db.send(
      new GetCommand({ TableName: sandbox.tableName, Key: journeyEntity.keys.journey(ws.slug, made.journeyId) }),
    );
    expect(Item?.archivedAt).toBeUndefined();
  });
});

describe('costs', () => {
  it('reads, creates, renames and discards cost auth + 1 DynamoDB call; saves, relabels, branches, publishes and archives auth + 2', async () => {
    const made = await makeJourney(api);
    await insideOneRateLimitWindow(api);
    const expectCalls = async (res: Promise<import('../support/fixtures.ts').ApiResponse>, calls: number) => {
      const answer = await res;
      expect(answer.status, answer.text).toBeLessThan(300);
      expect(dynamoDbCalls(answer)).toBe(calls);
    };
    await expectCalls(api.get(`/journeys/${made.journeyId}`), 4);
    await expectCalls(api.get('/journeys'), 4);
    await expectCalls(api.get(`/journeys/${made.journeyId}/versions`), 4);
    await expectCalls(api.get(`/journeys/${made.journeyId}/versions/${made.versionId}`), 4);
    await expectCalls(api.get(`/journeys/${made.journeyId}/versions/${made.versionId}/diff?against=${made.versionId}`), 4);
    await expectCalls(api.post('/journeys', { body: { title: 'Counted' } }), 4);
    await expectCalls(api.patch(`/journeys/${made.journeyId}`, { body: { title: 'Counted' } }), 4);
    // Content without references: validate reads nothing, a save reads the journey and version once.
    await expectCalls(api.post('/journeys/validate', { body: { content: cleanContent() } }), 3);
    await expectCalls(
      api.put(`/journeys/${made.journeyId}/versions/${made.versionId}/content`, {
        body: { content: cleanContent() },
        headers: { 'If-Match': '"1"' },
      }),
      5,
    );
    await expectCalls(api.patch(`/journeys/${made.journeyId}/versions/${made.versionId}`, { body: { label: 'Counted' } }), 5);
    const branch = api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } });
    const branched = await branch;
    expect(dynamoDbCalls(branched)).toBe(5);
    await expectCalls(api.delete(`/journeys/${made.journeyId}/versions/${branched.body.version.id}`), 4);
    await expectCalls(api.post(`/journeys/${made.journeyId}/versions/${made.versionId}/publish`, { headers: { 'If-Match': '"2"' } }), 5);
    await expectCalls(api.delete(`/journeys/${made.journeyId}`), 5);
  });
});
