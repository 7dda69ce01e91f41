/**
 * The SOP write body over HTTP (POST /sops and PUT /sops/{id} share it): every validation rule,
 * directory validation of department and escalation references, and department serials under
 * concurrency.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { importDirectory, parseDirectoryImport } from '../../lib/admin/directory.ts';
import { type ApiResponse, adminStore, clientFor, expectErrorEnvelope, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { importTestDirectory, sopBody, type TestDirectory } from '../support/sop-fixtures.ts';

let ws: TestWorkspace;
let dir: TestDirectory;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await newWorkspace('sopwrite');
  dir = await importTestDirectory(ws);
  api = clientFor(ws);
});

function ok(res: ApiResponse): ApiResponse {
  if (res.status !== 200) throw new Error(`Expected 200, got ${res.status} ${res.text}`);
  return res;
}

const issuePaths = (res: ApiResponse) => (res.body.issues as { path: string }[]).map((i) => i.path);

async function sopCount(): Promise<number> {
  return ok(await api.get('/sops')).body.sops.length;
}

describe('write body validation: 400 invalid_body, nothing written', () => {
  const long = (n: number) => 'x'.repeat(n);
  const cases: [string, unknown, string][] = [
    ['an empty object', {}, 'body.type'],
    ['no title at all', { type: 'inquiry' }, 'body.titleEn'],
    ['both titles null', { titleEn: null, titleAr: null, type: 'inquiry' }, 'body.titleEn'],
    ['a blank title', sopBody({ titleEn: '   ' }), 'body.titleEn'],
    ['titleEn over 200 characters', sopBody({ titleEn: long(201) }), 'body.titleEn'],
    ['titleAr over 200 characters', sopBody({ titleAr: long(201) }), 'body.titleAr'],
    ['a title that is not a string', sopBody({ titleEn: 42 }), 'body.titleEn'],
    ['an unknown type', sopBody({ type: 'memo' }), 'body.type'],
    ['no type', { titleEn: 'x' }, 'body.type'],
    ['a non-inquiry SOP without escalationLevel1', sopBody({ type: 'complaint' }), 'body.escalationLevel1'],
    ['escalationLevel2 without escalationLevel1', sopBody({ escalationLevel2: 'role:lead' }), 'body.escalationLevel2'],
    [
      'escalationLevel3 without escalationLevel2',
      sopBody({ escalationLevel1: 'role:a', escalationLevel3: 'role:c' }),
      'body.escalationLevel3',
    ],
    ['an escalation reference that is neither a directory id nor legacy', sopBody({ escalationLevel1: 'bob' }), 'body.escalationLevel1'],
    ['a legacy reference with nothing after the prefix', sopBody({ escalationLevel1: 'user:' }), 'body.escalationLevel1'],
    ['an unknown legacy kind', sopBody({ escalationLevel1: 'group:ops' }), 'body.escalationLevel1'],
    ['a departmentId that is not an id', sopBody({ departmentId: 'Customer Care' }), 'body.departmentId'],
    ['a description over 4000 characters', sopBody({ descriptionEn: long(4001) }), 'body.descriptionEn'],
    ['a blank description', sopBody({ descriptionAr: '' }), 'body.descriptionAr'],
    ['steps that are not an array', sopBody({ steps: 'do it' }), 'body.steps'],
    ['more than 40 steps', sopBody({ steps: Array.from({ length: 41 }, () => ({ body: 'b' })) }), 'body.steps'],
    ['an empty step', sopBody({ steps: [{ body: 'ok' }, {}] }), 'body.steps.1'],
    ['a step body over 2000 characters', sopBody({ steps: [{ body: long(2001) }] }), 'body.steps.0.body'],
    ['an unknown field in a step', sopBody({ steps: [{ body: 'ok', note: 'x' }] }), 'body.steps.0'],
    ['an unknown field', sopBody({ status: 'published' }), 'body'],
    ['a server-set field', sopBody({ serial: 7 }), 'body'],
  ];

  it.each(cases)('rejects %s', async (_name, body, path) => {
    const before = await sopCount();
    const res = await api.post('/sops', { body });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(issuePaths(res)).toContain(path);
    expect(res.body.message).toMatch(/^body/);
    expect(await sopCount()).toBe(before);
  });

  it('names unknown fields in the message', async () => {
    const res = await api.post('/sops', { body: sopBody({ color: 'red' }) });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(res.body.message).toContain('"color"');
  });

  it('rejects a missing body, a non-JSON body and malformed JSON', async () => {
    expectErrorEnvelope(await api.post('/sops'), 400, 'invalid_body');
    expectErrorEnvelope(
      await api.post('/sops', { rawBody: 'title=x', headers: { 'Content-Type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectErrorEnvelope(await api.post('/sops', { rawBody: '{"titleEn":' }), 400, 'invalid_json');
  });

  it('applies the same rules to PUT, leaving the SOP unchanged', async () => {
    const sop = ok(await api.post('/sops', { body: sopBody() })).body.sop;
    for (const [, body, path] of cases) {
      const res = await api.put(`/sops/${sop.id}`, { body });
      expectErrorEnvelope(res, 400, 'invalid_body');
      expect(issuePaths(res)).toContain(path);
    }
    expect(ok(await api.get(`/sops/${sop.id}`)).body.sop).toEqual(sop);
  });

  it('accepts the boundaries: titleAr alone, 200-character titles, 40 steps, 4000-character descriptions, nulls for unset fields', async () => {
    const res = await api.post('/sops', {
      body: {
        titleEn: null,
        titleAr: 'ع'.repeat(200),
        type: 'general',
        departmentId: null,
        descriptionEn: long(4000),
        descriptionAr: null,
        steps: Array.from({ length: 40 }, (_, i) => ({ titleEn: `Step ${i + 1}`, body: long(2000) })),
        escalationLevel1: 'user:7f3c',
        escalationLevel2: null,
        escalationLevel3: null,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({ titleEn: null, titleAr: 'ع'.repeat(200), type: 'general', departmentId: null });
    expect(res.body.sop.steps).toHaveLength(40);
  });

  it('accepts every documented type; only inquiry may omit escalationLevel1', async () => {
    for (const type of ['complaint', 'request', 'incident', 'general']) {
      expect((await api.post('/sops', { body: sopBody({ type, escalationLevel1: 'role:supervisor' }) })).status).toBe(200);
    }
    expect((await api.post('/sops', { body: { titleEn: 'Hours question', type: 'inquiry' } })).status).toBe(200);
  });
});

describe('directory references', () => {
  it('accepts active people and teams as escalation levels and an active team as department', async () => {
    const res = await api.post('/sops', {
      body: sopBody({
        type: 'incident',
        departmentId: dir.teams.care,
        escalationLevel1: dir.people.amal,
        escalationLevel2: dir.teams.billing,
        escalationLevel3: dir.people.omar,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({
      departmentId: dir.teams.care,
      escalationLevel1: dir.people.amal,
      escalationLevel2: dir.teams.billing,
      escalationLevel3: dir.people.omar,
    });
  });

  it('stores legacy user: and role: references exactly as given', async () => {
    const res = await api.post('/sops', {
      body: sopBody({ type: 'request', escalationLevel1: 'user:8d1e-LEGACY', escalationLevel2: 'role:Shift Supervisor' }),
    });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({ escalationLevel1: 'user:8d1e-LEGACY', escalationLevel2: 'role:Shift Supervisor' });
  });

  it('accepts directory ids in upper case and stores them as the directory lists them', async () => {
    const res = await api.post('/sops', {
      body: sopBody({ departmentId: dir.teams.care.toUpperCase(), escalationLevel1: dir.people.amal.toUpperCase() }),
    });
    expect(res.status).toBe(200);
    expect(res.body.sop).toMatchObject({ departmentId: dir.teams.care, escalationLevel1: dir.people.amal });
  });

  const unknownId = '6b1f5a0e-1d2c-4b3a-9e8f-7a6b5c4d3e2f';
  const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
    [
      'an unknown escalation id',
      () => ({ type: 'complaint', escalationLevel1: unknownId }),
      'body.escalationLevel1',
      /is not a person or team/,
    ],
    [
      'an inactive person',
      () => ({ type: 'complaint', escalationLevel1: dir.people.leaver }),
      'body.escalationLevel1',
      /person .* is inactive/,
    ],
    [
      'an inactive team',
      () => ({ escalationLevel1: dir.people.amal, escalationLevel2: dir.teams.closed }),
      'body.escalationLevel2',
      /team .* is inactive/,
    ],
    ['an unknown department', () => ({ departmentId: unknownId }), 'body.departmentId', /is not a team/],
    ['a person as department', () => ({ departmentId: dir.people.amal }), 'body.departmentId', /is not a team/],
    ['an inactive department', () => ({ departmentId: dir.teams.closed }), 'body.departmentId', /inactive/],
  ];

  it.each(cases)('rejects %s with 400 invalid_body, writing nothing', async (_name, overrides, path, message) => {
    const before = await sopCount();
    const res = await api.post('/sops', { body: sopBody(overrides()) });
    expectErrorEnvelope(res, 400, 'invalid_body');
    const issue = (res.body.issues as { path: string; message: string }[]).find((i) => i.path === path);
    expect(issue?.message).toMatch(message);
    expect(await sopCount()).toBe(before);
  });

  it('reports every bad reference of a body at once', async () => {
    const res = await api.post('/sops', {
      body: sopBody({
        departmentId: dir.teams.closed,
        escalationLevel1: unknownId,
        escalationLevel2: dir.people.leaver,
        escalationLevel3: dir.people.amal,
      }),
    });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(issuePaths(res).sort()).toEqual(['body.departmentId', 'body.escalationLevel1', 'body.escalationLevel2']);
  });

  it('checks references on PUT too: an entry deactivated by a later import can no longer be referenced', async () => {
    const local = await newWorkspace('sopwrite-dir');
    const localApi = clientFor(local);
    const localDir = await importTestDirectory(local);
    const sop = ok(await localApi.post('/sops', { body: sopBody({ type: 'complaint', escalationLevel1: localDir.people.omar }) })).body.sop;

    // Omar left: the next import no longer lists him.
    await importDirectory(
      adminStore(),
      local.slug,
      parseDirectoryImport({
        people: [{ name: 'Amal Haddad', email: 'amal@example.com', active: true, sourceUserId: '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e' }],
        teams: [],
      }),
    );
    // The SOP still shows the reference, and the directory still lists Omar, inactive.
    expect(ok(await localApi.get(`/sops/${sop.id}`)).body.sop.escalationLevel1).toBe(localDir.people.omar);
    const omar = ok(await localApi.get('/sops/directory')).body.people.find((p: { id: string }) => p.id === localDir.people.omar);
    expect(omar.active).toBe(false);

    const res = await localApi.put(`/sops/${sop.id}`, { body: sopBody({ type: 'complaint', escalationLevel1: localDir.people.omar }) });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(issuePaths(res)).toEqual(['body.escalationLevel1']);
    expect(
      ok(await localApi.put(`/sops/${sop.id}`, { body: sopBody({ type: 'complaint', escalationLevel1: localDir.people.amal }) })).body.sop
        .escalationLevel1,
    ).toBe(localDir.people.amal);
  });

  it("does not accept another workspace's directory ids", async () => {
    const local = await newWorkspace('sopwrite-foreign');
    const res = await clientFor(local).post('/sops', { body: sopBody({ departmentId: dir.teams.care }) });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(issuePaths(res)).toEqual(['body.departmentId']);
  });
});

describe('department serials', () => {
  async function freshWorkspace() {
    const local = await newWorkspace('sopserial');
    return { ws: local, api: clientFor(local), dir: await importTestDirectory(local) };
  }

  it('gives ten concurrent creates in one department ten different serials, 1 to 10', async () => {
    const { api: localApi, dir: localDir } = await freshWorkspace();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        localApi.post('/sops', { body: sopBody({ titleEn: `Concurrent ${i}`, departmentId: localDir.teams.care }) }),
      ),
    );
    for (const res of results) expect(res.status, res.text).toBe(200);
    const serials = results.map((r) => r.body.sop.serial as number).sort((a, b) => a - b);
    expect(serials).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const listed = ok(await localApi.get('/sops')).body.sops as { serial: number }[];
    expect(listed.map((s) => s.serial).sort((a, b) => a - b)).toEqual(serials);
  });

  it('numbers each department and the SOPs without a department separately, also when created concurrently', async () => {
    const { api: localApi, dir: localDir } = await freshWorkspace();
    const departments = [localDir.teams.care, localDir.teams.billing, null];
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => localApi.post('/sops', { body: sopBody({ departmentId: departments[i % 3] }) })),
    );
    for (const res of results) expect(res.status, res.text).toBe(200);
    for (const department of departments) {
      const serials = results
        .filter((r) => r.body.sop.departmentId === department)
        .map((r) => r.body.sop.serial as number)
        .sort((a, b) => a - b);
      expect(serials, String(department)).toEqual([1, 2, 3, 4]);
    }
  });

  it('never reuses a serial: not after a delete, not after failed creates', async () => {
    const { api: localApi, dir: localDir } = await freshWorkspace();
    const first = ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    const second = ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    expect([first.serial, second.serial]).toEqual([1, 2]);
    ok(await localApi.delete(`/sops/${second.id}`));
    // Rejected creates consume nothing.
    expect((await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care, type: 'memo' }) })).status).toBe(400);
    expect(
      (await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care, escalationLevel1: localDir.people.leaver }) }))
        .status,
    ).toBe(400);
    const third = ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    expect(third.serial).toBe(3);
  });

  it('gives an SOP moved to another department the next serial there; moving back gives a new one, never the old', async () => {
    const { api: localApi, dir: localDir } = await freshWorkspace();
    const care = ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.billing }) }));

    const moved = ok(await localApi.put(`/sops/${care.id}`, { body: sopBody({ departmentId: localDir.teams.billing }) })).body.sop;
    expect(moved).toMatchObject({
      id: care.id,
      departmentId: localDir.teams.billing,
      serial: 2,
      status: 'draft',
      createdAt: care.createdAt,
    });
    expect(ok(await localApi.get(`/sops/${care.id}`)).body.sop).toEqual(moved);

    const back = ok(await localApi.put(`/sops/${care.id}`, { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    expect(back).toMatchObject({ departmentId: localDir.teams.care, serial: 2 });
    const none = ok(await localApi.put(`/sops/${care.id}`, { body: sopBody() })).body.sop;
    expect(none).toMatchObject({ departmentId: null, serial: 1 });
    // Edits that keep the department keep the serial.
    expect(ok(await localApi.put(`/sops/${care.id}`, { body: sopBody({ titleEn: 'Same place' }) })).body.sop.serial).toBe(1);
  });

  it('moves a published SOP to another department as a draft, and refuses to move one under review', async () => {
    const { api: localApi, dir: localDir } = await freshWorkspace();
    const sop = ok(await localApi.post('/sops', { body: sopBody({ departmentId: localDir.teams.care }) })).body.sop;
    ok(await localApi.post(`/sops/${sop.id}/submit`));
    expectErrorEnvelope(
      await localApi.put(`/sops/${sop.id}`, { body: sopBody({ departmentId: localDir.teams.billing }) }),
      400,
      'invalid_state',
    );
    expect(ok(await localApi.get(`/sops/${sop.id}`)).body.sop).toMatchObject({
      departmentId: localDir.teams.care,
      serial: 1,
      status: 'under_review',
    });

    ok(await localApi.post(`/sops/${sop.id}/approve`));
    const moved = ok(await localApi.put(`/sops/${sop.id}`, { body: sopBody({ departmentId: localDir.teams.billing }) })).body.sop;
    expect(moved).toMatchObject({
      departmentId: localDir.teams.billing,
      serial: 1,
      status: 'draft',
      publishedAt: null,
      approvedBy: null,
      submittedAt: null,
    });
  });
});
