/** Who may call which Journeys operation: the permission matrix, and the module switch. */
import { beforeAll, describe, expect, it } from 'vitest';
import { changeModules } from '../../lib/admin/workspaces.ts';
import type { Permission } from '../../lib/platform/permissions.ts';
import { adminStore, clientFor, expectErrorEnvelope, newKey, newWorkspace, type TestWorkspace } from '../support/fixtures.ts';
import { type Api, type MadeJourney, makeJourney } from '../support/journeys.ts';

let ws: TestWorkspace;
let owner: Api;
let made: MadeJourney;

beforeAll(async () => {
  ws = await newWorkspace('journeys-access');
  owner = clientFor(ws);
  made = await makeJourney(owner);
});

type Operation = { name: string; needs: Permission; run: (api: Api) => ReturnType<Api['get']> };

/** Every operation, with the permission it needs; each call is valid apart from who makes it. */
function operations(): Operation[] {
  const version = `/journeys/${made.journeyId}/versions/${made.versionId}`;
  const content = { schema: 1, stages: [], rows: [], cells: {} };
  return [
    { name: 'list journeys', needs: 'journeys:read', run: (api) => api.get('/journeys') },
    { name: 'read journey', needs: 'journeys:read', run: (api) => api.get(`/journeys/${made.journeyId}`) },
    { name: 'list versions', needs: 'journeys:read', run: (api) => api.get(`/journeys/${made.journeyId}/versions`) },
    { name: 'read version', needs: 'journeys:read', run: (api) => api.get(version) },
    { name: 'diff', needs: 'journeys:read', run: (api) => api.get(`${version}/diff?against=${made.versionId}`) },
    { name: 'map picture', needs: 'journeys:read', run: (api) => api.get(`${version}/map.svg`) },
    { name: 'metrics', needs: 'journeys:read', run: (api) => api.get(`${version}/metrics`) },
    { name: 'validate', needs: 'journeys:read', run: (api) => api.post('/journeys/validate', { body: { content } }) },
    { name: 'create journey', needs: 'journeys:write', run: (api) => api.post('/journeys', { body: { title: 'x' } }) },
    { name: 'rename journey', needs: 'journeys:write', run: (api) => api.patch(`/journeys/${made.journeyId}`, { body: { title: 'x' } }) },
    {
      name: 'create micro journey',
      needs: 'journeys:write',
      run: (api) => api.post(`/journeys/${made.journeyId}/micro-journeys`, { body: { title: 'x' } }),
    },
    {
      name: 'branch version',
      needs: 'journeys:write',
      run: (api) => api.post(`/journeys/${made.journeyId}/versions`, { body: { fromVersionId: made.versionId } }),
    },
    { name: 'relabel version', needs: 'journeys:write', run: (api) => api.patch(version, { body: { label: 'x' } }) },
    {
      name: 'save content',
      needs: 'journeys:write',
      run: (api) => api.put(`${version}/content`, { body: { content }, headers: { 'If-Match': '*' } }),
    },
    {
      name: 'publish',
      needs: 'journeys:write',
      run: (api) =>
        api.post(`/journeys/${made.journeyId}/versions/00000000-0000-4000-8000-000000000000/publish`, { headers: { 'If-Match': '*' } }),
    },
    {
      name: 'discard version',
      needs: 'journeys:write',
      run: (api) => api.delete(`/journeys/${made.journeyId}/versions/00000000-0000-4000-8000-000000000000`),
    },
    {
      name: 'archive journey',
      needs: 'journeys:delete',
      run: (api) => api.post('/journeys', { body: { title: 'to archive' } }).then((res) => api.delete(`/journeys/${res.body.journeyId}`)),
    },
  ];
}

describe('permission matrix', () => {
  const holders: [string, Permission[]][] = [
    ['read-only', ['journeys:read']],
    ['read + write', ['journeys:read', 'journeys:write']],
    ['read + write + delete', ['journeys:read', 'journeys:write', 'journeys:delete']],
    ['other modules only', ['ideas:read', 'ideas:write', 'ideas:delete']],
  ];

  for (const [label, permissions] of holders) {
    it(`a ${label} key may call exactly the operations its permissions name`, async () => {
      const key = await newKey(ws.slug, permissions);
      const api = clientFor({ host: ws.host, key: key.key });
      for (const operation of operations()) {
        // The archive operation creates its journey first, which needs write.
        const allowed =
          permissions.includes(operation.needs) && (operation.needs !== 'journeys:delete' || permissions.includes('journeys:write'));
        const res = await operation.run(api);
        if (allowed) expect([200, 404], `${label}: ${operation.name} → ${res.status} ${res.text}`).toContain(res.status);
        else expectErrorEnvelope(res, 403, 'missing_permission');
      }
    });
  }

  it('keys made with every permission hold journeys:delete; read-only keys do not', async () => {
    const { PERMISSIONS, DEFAULT_PERMISSIONS } = await import('../../lib/platform/permissions.ts');
    expect(PERMISSIONS).toContain('journeys:delete');
    expect(DEFAULT_PERMISSIONS).not.toContain('journeys:delete');
  });
});

describe('module switch', () => {
  it('answers 403 module_disabled for every operation while the journeys module is off', async () => {
    const own = await newWorkspace('journeys-module');
    const api = clientFor(own);
    await changeModules(adminStore(), own.slug, { disable: ['journeys'] });
    for (const operation of operations()) expectErrorEnvelope(await operation.run(api), 403, 'module_disabled');
  });
});
