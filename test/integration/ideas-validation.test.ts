/** Every limit of an idea (spec part 8), the configured labels and the body rules, on POST, PUT and PATCH. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { setIdeaLabels } from '../../lib/admin/workspaces.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { type ApiResponse, adminStore, clientFor, expectErrorEnvelope, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace } from '../support/ideas.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let existingId: string;
const STATUS_100 = 's'.repeat(100);
const MODULE_100 = 'm'.repeat(100);

beforeAll(async () => {
  ws = await ideasWorkspace('ideas-limits');
  await setIdeaLabels(adminStore(), ws.slug, { statuses: ['new', STATUS_100], modules: ['billing', MODULE_100] });
  api = clientFor(ws);
  existingId = (await createIdea(ws)).body.data.id;
});

/** Every idea item stored in the workspace, to prove a rejected request wrote nothing. */
async function storedIdeaCount(): Promise<number> {
  const { Items = [] } = await adminStore().db.send(
    new QueryCommand({
      TableName: sandbox.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(ws.slug), ':prefix': 'IDEA#' },
    }),
  );
  return Items.length;
}

function expectInvalid(res: ApiResponse, path: string): void {
  expectErrorEnvelope(res, 400, 'invalid_body');
  expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
}

const writes = {
  POST: (body: unknown) => api.post('/ideas', { body }),
  PUT: (body: unknown) => api.put(`/ideas/${existingId}`, { body }),
  PATCH: (body: unknown) => api.patch(`/ideas/${existingId}`, { body }),
};

describe.each(Object.entries(writes))('%s body limits', (method, send) => {
  it.each([
    ['title', 160],
    ['titleAr', 160],
    ['description', 4000],
  ])('accepts %s of %i characters and rejects one more', async (field, max) => {
    const base = { title: 'Limits' };
    const ok = await send({ ...base, [field]: 'x'.repeat(max) });
    expect(ok.status, ok.text).toBe(method === 'POST' ? 201 : 200);
    expect(ok.body.data[field]).toHaveLength(max);
    expectInvalid(await send({ ...base, [field]: 'x'.repeat(max + 1) }), `body.${field}`);
  });

  it('counts characters, not UTF-16 units: 160 emoji are a valid title, 161 are not', async () => {
    expect((await send({ title: '💡'.repeat(160) })).status).toBeLessThan(300);
    expectInvalid(await send({ title: '💡'.repeat(161) }), 'body.title');
  });

  it('accepts a configured status and module of 100 characters and rejects 101', async () => {
    const ok = await send({ title: 'Labels', status: STATUS_100, module: MODULE_100 });
    expect(ok.status, ok.text).toBeLessThan(300);
    expect(ok.body.data).toMatchObject({ status: STATUS_100, module: MODULE_100 });
    expectInvalid(await send({ title: 'Labels', status: `${STATUS_100}s` }), 'body.status');
    expectInvalid(await send({ title: 'Labels', module: `${MODULE_100}m` }), 'body.module');
  });

  it('rejects a status or module that is not configured, naming the configured values', async () => {
    const res = await send({ title: 'Labels', status: 'shipped', module: 'Billing' });
    expectInvalid(res, 'body.status');
    expectInvalid(res, 'body.module');
    expect(res.body.issues.find((i: { path: string }) => i.path === 'body.status').message).toContain('new');
  });

  it('rejects unknown fields, read-only fields and wrong types', async () => {
    expectInvalid(await send({ title: 'x', votes: 3 }), 'body');
    expectInvalid(await send({ title: 'x', version: 2 }), 'body');
    expectInvalid(await send({ title: 'x', moderationStatus: 'approved' }), 'body');
    expectInvalid(await send({ title: 42 }), 'body.title');
    expectInvalid(await send({ title: 'x', status: 7 }), 'body.status');
  });

  it('rejects an empty or blank title', async () => {
    expectInvalid(await send({ title: '' }), 'body.title');
    expectInvalid(await send({ title: '   ' }), 'body.title');
  });

  it('rejects a body that is not a JSON object', async () => {
    expectInvalid(await send([]), 'body');
    expectErrorEnvelope(
      await (method === 'POST'
        ? api.post('/ideas', { rawBody: '{"title":' })
        : method === 'PUT'
          ? api.put(`/ideas/${existingId}`, { rawBody: '{"title":' })
          : api.patch(`/ideas/${existingId}`, { rawBody: '{"title":' })),
      400,
      'invalid_json',
    );
  });
});

describe('IdeaWrite submitter data and customer context', () => {
  it('accepts a submitter and a customer context of up to 16 KB', async () => {
    const res = await api.post('/ideas', {
      body: {
        title: 'With context',
        submitter: { name: 'Ann', email: 'ann@example.com', externalId: 'crm-1' },
        customerContext: { plan: 'pro', padding: 'x'.repeat(16 * 1024 - 100), '': { deep: [1, { deeper: null }] } },
      },
    });
    expect(res.status, res.text).toBe(201);
  });

  it('rejects a bad e-mail, unknown submitter fields, a non-object context and a context over 16 KB', async () => {
    expectInvalid(await api.post('/ideas', { body: { title: 'x', submitter: { email: 'not-an-email' } } }), 'body.submitter.email');
    expectInvalid(await api.post('/ideas', { body: { title: 'x', submitter: { phone: '123' } } }), 'body.submitter');
    expectInvalid(await api.post('/ideas', { body: { title: 'x', customerContext: ['a'] } }), 'body.customerContext');
    expectInvalid(
      await api.post('/ideas', { body: { title: 'x', customerContext: { big: 'x'.repeat(16 * 1024) } } }),
      'body.customerContext',
    );
  });

  it('PATCH does not take submitter data or customer context', async () => {
    expectInvalid(await api.patch(`/ideas/${existingId}`, { body: { submitter: { name: 'x' } } }), 'body');
  });
});

describe('a rejected request writes nothing', () => {
  it('leaves the stored ideas and the idea untouched', async () => {
    const before = await storedIdeaCount();
    const idea = (await api.get(`/ideas/${existingId}`)).body.data;
    await api.post('/ideas', { body: { title: 'x'.repeat(161) } });
    await api.post('/ideas', { body: { title: 'ok', status: 'shipped' } });
    await api.put(`/ideas/${existingId}`, { body: { title: 'ok', module: 'nope' } });
    await api.patch(`/ideas/${existingId}`, { body: { description: 'x'.repeat(4001) } });
    expect(await storedIdeaCount()).toBe(before);
    expect((await api.get(`/ideas/${existingId}`)).body.data).toEqual(idea);
  });
});

describe('a workspace with no labels configured', () => {
  it('accepts ideas without status or module and rejects any value, saying none are configured', async () => {
    const bare = await ideasWorkspace('ideas-bare');
    await setIdeaLabels(adminStore(), bare.slug, { statuses: [], modules: [] });
    const client = clientFor(bare);
    expect((await client.post('/ideas', { body: { title: 'Fine' } })).status).toBe(201);
    const res = await client.post('/ideas', { body: { title: 'x', status: 'new' } });
    expectInvalid(res, 'body.status');
    expect(res.body.message).toMatch(/no idea statuses configured/);
  });

  it('keeps an idea whose label was later removed, and lets other fields change', async () => {
    const local = await ideasWorkspace('ideas-unlabel');
    const created = await createIdea(local, { status: 'planned' });
    await setIdeaLabels(adminStore(), local.slug, { statuses: ['new'] });
    const client = clientFor(local);
    const res = await client.patch(`/ideas/${created.body.data.id}`, { body: { description: 'still planned' } });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('planned');
    expectInvalid(await client.patch(`/ideas/${created.body.data.id}`, { body: { status: 'planned' } }), 'body.status');
  });
});

describe('list query', () => {
  it('accepts limit 1 and 100, rejects 0, 101, non-numbers and unknown parameters', async () => {
    expect((await api.get('/ideas?limit=1')).status).toBe(200);
    expect((await api.get('/ideas?limit=100')).status).toBe(200);
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'limit=1e2', 'offset=-1', 'offset=2147483648', 'sort=title']) {
      expectErrorEnvelope(await api.get(`/ideas?${query}`), 400, 'invalid_query');
    }
  });
});
