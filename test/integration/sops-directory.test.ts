/** GET /sops/directory over HTTP: what `cxctl directory import` wrote, with exactly the spec's fields. */
import { beforeAll, describe, expect, it } from 'vitest';
import { importDirectory, parseDirectoryImport, stableUuid } from '../../lib/admin/directory.ts';
import { changeModules } from '../../lib/admin/workspaces.ts';
import {
  adminStore,
  call,
  clientFor,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { steadyRateLimitWindow } from '../support/sop-fixtures.ts';

let ws: TestWorkspace;

const AMAL_SOURCE = '0b7e6b3e-9a43-4c5e-8f6f-1f2a3b4c5d6e';
const CARE_SOURCE = '5f0c2a8e-3b1d-4e6f-9a7b-2c3d4e5f6a7b';

beforeAll(async () => {
  ws = await newWorkspace('sopdir');
  await importDirectory(
    adminStore(),
    ws.slug,
    parseDirectoryImport({
      people: [
        { name: 'omar Saleh', email: 'omar@example.com', active: true },
        { name: 'Amal Haddad', email: 'amal@example.com', active: true, sourceUserId: AMAL_SOURCE },
        { name: 'Layla Former', email: 'layla@example.com', active: false },
      ],
      teams: [
        { name: 'Customer Care', active: true, sourceDepartmentId: CARE_SOURCE },
        { name: 'Billing', active: true },
      ],
    }),
  );
});

describe('GET /sops/directory', () => {
  it('lists people and teams with exactly the spec fields, sorted by name, inactive entries included', async () => {
    const res = await clientFor(ws).get('/sops/directory');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      people: [
        {
          id: stableUuid(ws.slug, 'person', AMAL_SOURCE),
          name: 'Amal Haddad',
          email: 'amal@example.com',
          active: true,
          sourceUserId: AMAL_SOURCE,
        },
        {
          id: stableUuid(ws.slug, 'person', 'layla@example.com'),
          name: 'Layla Former',
          email: 'layla@example.com',
          active: false,
          sourceUserId: null,
        },
        {
          id: stableUuid(ws.slug, 'person', 'omar@example.com'),
          name: 'omar Saleh',
          email: 'omar@example.com',
          active: true,
          sourceUserId: null,
        },
      ],
      teams: [
        { id: stableUuid(ws.slug, 'team', 'billing'), name: 'Billing', active: true, sourceDepartmentId: null },
        { id: stableUuid(ws.slug, 'team', CARE_SOURCE), name: 'Customer Care', active: true, sourceDepartmentId: CARE_SOURCE },
      ],
    });
  });

  it('keeps ids stable across re-imports and marks entries no longer listed inactive', async () => {
    const local = await newWorkspace('sopdir-reimport');
    const api = clientFor(local);
    await importDirectory(
      adminStore(),
      local.slug,
      parseDirectoryImport({ people: [{ name: 'Ada', email: 'ada@example.com', active: true }], teams: [{ name: 'Ops', active: true }] }),
    );
    const before = (await api.get('/sops/directory')).body;
    await importDirectory(
      adminStore(),
      local.slug,
      parseDirectoryImport({ people: [{ name: 'Ada Lovelace', email: 'ada@example.com', active: true }], teams: [] }),
    );
    const after = (await api.get('/sops/directory')).body;
    expect(after.people).toEqual([{ ...before.people[0], name: 'Ada Lovelace' }]);
    expect(after.teams).toEqual([{ ...before.teams[0], active: false }]);
  });

  it('answers empty lists before any import', async () => {
    const local = await newWorkspace('sopdir-empty');
    expect((await clientFor(local).get('/sops/directory')).body).toEqual({ ok: true, people: [], teams: [] });
  });

  it('costs one Query after auth', async () => {
    await steadyRateLimitWindow(ws, ws.key);
    const res = await clientFor(ws).get('/sops/directory');
    expect(res.status).toBe(200);
    expect(dynamoDbCalls(res)).toBe(4);
  });

  it('is readable with sops:read alone, and needs it', async () => {
    const reader = await newKey(ws.slug, ['sops:read']);
    expect((await call('GET', '/sops/directory', { host: ws.host, key: reader.key })).body.people).toHaveLength(3);
    const other = await newKey(ws.slug, ['ideas:read', 'sops:write']);
    expectErrorEnvelope(await call('GET', '/sops/directory', { host: ws.host, key: other.key }), 403, 'missing_permission');
  });

  it("never shows another workspace's directory", async () => {
    const local = await newWorkspace('sopdir-other');
    expect((await clientFor(local).get('/sops/directory')).body).toEqual({ ok: true, people: [], teams: [] });
  });

  it('answers 403 module_disabled while the sops module is off', async () => {
    const local = await newWorkspace('sopdir-off');
    await changeModules(adminStore(), local.slug, { disable: ['sops'] });
    expectErrorEnvelope(await clientFor(local).get('/sops/directory'), 403, 'module_disabled');
  });

  it('takes no query parameters', async () => {
    expectErrorEnvelope(await clientFor(ws).get('/sops/directory?active=true'), 400, 'invalid_query');
  });
});
