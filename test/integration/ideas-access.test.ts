/** Who may do what to ideas: the permission matrix, the module switch and tenant isolation. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeModules } from '../../lib/admin/workspaces.ts';
import { ideaEntity } from '../../lib/ideas/entities.ts';
import { PERMISSIONS, type Permission } from '../../lib/platform/permissions.ts';
import { adminStore, call, clientFor, expectErrorEnvelope, newKey, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace } from '../support/ideas.ts';

let ws: TestWorkspace;
let ideaId: string;

beforeAll(async () => {
  ws = await ideasWorkspace('ideas-access');
  ideaId = (await createIdea(ws, { status: 'new' })).body.data.id;
});

interface Operation {
  name: string;
  permission: Permission;
  success: number;
  /** Sends the request with this key; `id` is a fresh idea where the operation needs one. */
  send: (host: string, key: string, id: string) => ReturnType<typeof call>;
}

const OPERATIONS: Operation[] = [
  { name: 'GET /ideas', permission: 'ideas:read', success: 200, send: (host, key) => call('GET', '/ideas', { host, key }) },
  {
    name: 'POST /ideas',
    permission: 'ideas:write',
    success: 201,
    send: (host, key) => call('POST', '/ideas', { host, key, body: { title: 'Matrix' } }),
  },
  { name: 'GET /ideas/labels', permission: 'ideas:read', success: 200, send: (host, key) => call('GET', '/ideas/labels', { host, key }) },
  { name: 'GET /ideas/{id}', permission: 'ideas:read', success: 200, send: (host, key, id) => call('GET', `/ideas/${id}`, { host, key }) },
  {
    name: 'PUT /ideas/{id}',
    permission: 'ideas:write',
    success: 200,
    send: (host, key, id) => call('PUT', `/ideas/${id}`, { host, key, body: { title: 'Matrix' } }),
  },
  {
    name: 'PATCH /ideas/{id}',
    permission: 'ideas:write',
    success: 200,
    send: (host, key, id) => call('PATCH', `/ideas/${id}`, { host, key, body: { status: 'done' } }),
  },
  {
    name: 'DELETE /ideas/{id}',
    permission: 'ideas:delete',
    success: 200,
    send: (host, key, id) => call('DELETE', `/ideas/${id}`, { host, key }),
  },
];

describe.each(OPERATIONS)('$name', (op) => {
  it(`answers 403 missing_permission to a key holding every permission but ${op.permission}, and changes nothing`, async () => {
    const key = await newKey(
      ws.slug,
      PERMISSIONS.filter((p) => p !== op.permission),
    );
    const id = (await createIdea(ws)).body.data.id;
    const before = (await clientFor(ws).get(`/ideas/${id}`)).body.data;
    const res = await op.send(ws.host, key.key, id);
    expectErrorEnvelope(res, 403, 'missing_permission');
    expect(res.body.message).toContain(op.permission);
    expect((await clientFor(ws).get(`/ideas/${id}`)).body.data).toEqual(before);
  });

  it(`succeeds for a key holding only ${op.permission}`, async () => {
    const key = await newKey(ws.slug, [op.permission]);
    const id = (await createIdea(ws)).body.data.id;
    const res = await op.send(ws.host, key.key, id);
    expect(res.status, res.text).toBe(op.success);
  });

  it('answers 403 module_disabled while the ideas module is off, to a key holding every permission', async () => {
    const local = await ideasWorkspace('ideas-off');
    const id = (await createIdea(local)).body.data.id;
    await changeModules(adminStore(), local.slug, { disable: ['ideas'] });
    expectErrorEnvelope(await op.send(local.host, local.key, id), 403, 'module_disabled');
    await changeModules(adminStore(), local.slug, { enable: ['ideas'] });
    expect((await op.send(local.host, local.key, id)).status).toBe(op.success);
  });
});

describe('tenant isolation', () => {
  let other: TestWorkspace;

  beforeAll(async () => {
    other = await ideasWorkspace('ideas-other');
  });

  it("answers 404 (never 403, never the record) to another workspace's host and key for each operation on an id", async () => {
    for (const op of OPERATIONS.filter((o) => o.name.includes('{id}'))) {
      const res = await op.send(other.host, other.key, ideaId);
      expectErrorEnvelope(res, 404, 'not_found');
      expect(res.text).not.toContain(ideaId);
    }
  });

  it('leaves the idea untouched, and out of the other workspace list', async () => {
    const { Item } = await adminStore().db.send(
      new GetCommand({ TableName: sandbox.tableName, Key: ideaEntity.keys.idea(ws.slug, ideaId), ConsistentRead: true }),
    );
    expect(Item).toMatchObject({ id: ideaId, status: 'new', version: 1 });
    const list = await clientFor(other).get('/ideas?limit=100');
    expect(list.body.data.map((i: { id: string }) => i.id)).not.toContain(ideaId);
    expect(list.body.pagination.total).toBe(0);
  });

  it("never lets one workspace's key in through another workspace's host (401)", async () => {
    expectErrorEnvelope(await call('GET', `/ideas/${ideaId}`, { host: other.host, key: ws.key }), 401, 'invalid_key');
  });
});
