/** The platform's request path over real HTTP: workspace selection, every 401 and 403 cause, 404s, 429. */
import { request } from 'node:http';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { listDeveloperKeys, revokeDeveloperKey, rotateDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { changeModules, setRequestBudget, setWorkspaceStatus } from '../../lib/admin/workspaces.ts';
import { newToken } from '../../lib/platform/auth/developer-key-token.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import { WORKSPACE_COPIES } from '../../lib/platform/data/workspace-record.ts';
import { DEFAULT_PERMISSIONS, MODULES, PERMISSIONS } from '../../lib/platform/permissions.ts';
import {
  adminStore,
  call,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  sandbox,
  type TestWorkspace,
} from '../support/fixtures.ts';

let ws: TestWorkspace;
let other: TestWorkspace;

beforeAll(async () => {
  [ws, other] = await Promise.all([newWorkspace('auth'), newWorkspace('auth-other')]);
  // A workspace budget far above the key's limit, so the RateLimit-* headers below are the key's (the tighter).
  await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 100_000, burst: 1_000_000 });
});

describe('GET /me', () => {
  it('answers 200 with the workspace for a valid key, with a request id and rate-limit headers', async () => {
    const res = await call('GET', '/me', { host: ws.host, key: ws.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      data: { workspace: ws.slug, authenticated: true, permissions: [...PERMISSIONS].sort(), modules: [...MODULES].sort() },
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
    expect(res.headers.get('ratelimit-limit')).toBe('10000');
    // The policy names both limits: the key's per minute, and the workspace's budget.
    expect(res.headers.get('ratelimit-policy')).toBe('10000;w=60;name="key", 1000000;w=10;name="workspace"');
    expect(Number(res.headers.get('ratelimit-remaining'))).toBeLessThan(10000);
  });

  it('says what the key may do: its own permissions and the modules the workspace has on', async () => {
    const reader = await newWorkspace('auth-reader');
    const readOnly = await newKey(reader.slug, [...DEFAULT_PERMISSIONS]);
    await changeModules(adminStore(), reader.slug, { disable: ['surveys', 'webhooks'] });
    const res = await call('GET', '/me', { host: reader.host, key: readOnly.key });
    expect(res.body.data).toEqual({
      workspace: reader.slug,
      authenticated: true,
      permissions: [...DEFAULT_PERMISSIONS].sort(),
      modules: ['ideas', 'journeys', 'knowledge-bank', 'sops'],
    });
  });

  it('accepts the bare slug in X-Service-Workspace-Host', async () => {
    const res = await call('GET', '/me', { host: ws.slug, key: ws.key });
    expect(res.status).toBe(200);
  });

  it('selects the workspace from the Host header on a workspace host', async () => {
    // fetch may not set Host, so speak HTTP directly, as a client of <slug>.localhost:<port> would.
    const url = new URL(`${sandbox.apiUrl}/me`);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { Host: `${ws.slug}.localhost:${url.port}`, Authorization: `Bearer ${ws.key}` },
        },
        (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).data.workspace).toBe(ws.slug);
  });

  it('costs three DynamoDB calls within a rate-limit window: the workspace read, then the key and budget counts', async () => {
    // The first request of a window also resets the key's counter; make sure both land in one window.
    let first = await call('GET', '/me', { host: ws.host, key: ws.key });
    if (Number(first.headers.get('ratelimit-reset')) < 5) {
      await new Promise((r) => setTimeout(r, 6000));
      first = await call('GET', '/me', { host: ws.host, key: ws.key });
    }
    const second = await call('GET', '/me', { host: ws.host, key: ws.key });
    expect(second.status).toBe(200);
    expect(dynamoDbCalls(second)).toBe(3);
  });
});

describe('workspace selection', () => {
  it('answers 400 missing_workspace_host without the header on the shared edge', async () => {
    expectErrorEnvelope(await call('GET', '/me', { key: ws.key }), 400, 'missing_workspace_host');
  });

  it.each([
    ['a path segment', '..'],
    ['a non-ASCII label', 'café.localhost'],
    // 8 KB: a longer head (request line and header values past 10,240 bytes) never reaches the function in AWS;
    // API Gateway answers it with its own 431 (test/integration/gateway-limits.test.ts).
    ['an 8 KB value', `${'a'.repeat(8_192)}.localhost`],
    ['a host with no workspace label', 'portal.example.com'],
    ['a nested subdomain', 'a.b.localhost'],
  ])('answers 400 invalid_header for %s in X-Service-Workspace-Host, before the key and without a database call', async (_, host) => {
    for (const key of [undefined, ws.key]) {
      const res = await call('GET', '/me', { host, key });
      expectErrorEnvelope(res, 400, 'invalid_header');
      expect(res.body.issues).toEqual([{ path: 'header.X-Service-Workspace-Host', message: expect.any(String) }]);
      expect(res.text).not.toContain('aaaaaaaaaa');
      expect(dynamoDbCalls(res)).toBe(0);
    }
  });

  it('answers a caller without a valid key the same 401 whether or not the workspace exists', async () => {
    const forged = newToken(ws.keyId);
    const unknown = await call('GET', '/me', { host: 'no-such-workspace.localhost', key: forged });
    const known = await call('GET', '/me', { host: ws.host, key: forged });
    expectErrorEnvelope(unknown, 401, 'invalid_key');
    expectErrorEnvelope(known, 401, 'invalid_key');
    expect(unknown.body).toEqual(known.body);
    // A valid key of another workspace does not tell either.
    expect((await call('GET', '/me', { host: 'no-such-workspace.localhost', key: ws.key })).body).toEqual(known.body);
  });

  it('answers 404 workspace_not_found only to a valid key whose workspace is gone', async () => {
    const gone = await newWorkspace('gone');
    // The workspace item and every copy authentication reads (keys.workspaceCopy): the key stays.
    const workspaceItems = [
      keys.workspace(gone.slug),
      ...Array.from({ length: WORKSPACE_COPIES }, (_, copy) => keys.workspaceCopy(gone.slug, copy)),
    ];
    for (const Key of workspaceItems) await adminStore().db.send(new DeleteCommand({ TableName: adminStore().table, Key }));
    expectErrorEnvelope(await call('GET', '/me', { host: gone.host, key: gone.key }), 404, 'workspace_not_found');
  });
});

describe('401: no usable key', () => {
  it('missing Authorization header → missing_key, with WWW-Authenticate', async () => {
    const res = await call('GET', '/me', { host: ws.host });
    expectErrorEnvelope(res, 401, 'missing_key');
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('not a Bearer header → invalid_key', async () => {
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, headers: { Authorization: `Basic ${ws.key}` } }), 401, 'invalid_key');
  });

  it('malformed or checksum-broken key → invalid_key, without touching DynamoDB', async () => {
    const broken = ws.key.slice(0, -1) + (ws.key.endsWith('a') ? 'b' : 'a');
    for (const key of ['nonsense', broken]) {
      const res = await call('GET', '/me', { host: ws.host, key });
      expectErrorEnvelope(res, 401, 'invalid_key');
      expect(dynamoDbCalls(res)).toBe(0);
    }
  });

  it('well-formed but unknown key → invalid_key', async () => {
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: newToken('AAAAAAAAAAAA') }), 401, 'invalid_key');
  });

  it('a right key id with the wrong secret → invalid_key', async () => {
    const forged = newToken(ws.keyId);
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: forged }), 401, 'invalid_key');
  });

  it("another workspace's key → invalid_key (the header never grants access by itself)", async () => {
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: other.key }), 401, 'invalid_key');
  });

  it('revoked key → key_revoked on the very next request', async () => {
    const key = await newKey(ws.slug, []);
    expect((await call('GET', '/me', { host: ws.host, key: key.key })).status).toBe(200);
    await revokeDeveloperKey(adminStore(), key.id);
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: key.key }), 401, 'key_revoked');
  });

  it('expired key → key_expired', async () => {
    const key = await newKey(ws.slug, [], { expiresInSeconds: 1 });
    expect((await call('GET', '/me', { host: ws.host, key: key.key })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: key.key }), 401, 'key_expired');
  });

  it('rotated key: the old secret fails at once, the new one works', async () => {
    const key = await newKey(ws.slug, []);
    const rotated = await rotateDeveloperKey(adminStore(), key.id);
    expect(rotated.id).toBe(key.id);
    const old = await call('GET', '/me', { host: ws.host, key: key.key });
    expectErrorEnvelope(old, 401, 'invalid_key');
    // The key is valid for this workspace; its old secret is not. The message must not say otherwise.
    expect(old.body.message).not.toMatch(/not valid for this workspace/);
    expect(old.body.message).toMatch(/rotation/);
    expect((await call('GET', '/me', { host: ws.host, key: rotated.key })).status).toBe(200);
  });
});

describe('forged secrets', () => {
  it("neither spend the real key's rate limit nor stamp its lastUsedAt", async () => {
    const real = await newKey(ws.slug, [], { rateLimitPerMinute: 20 });
    expect((await call('GET', '/me', { host: ws.host, key: real.key })).status).toBe(200);
    const stamped = await lastUsedAt(real.id);
    // As many forged requests as the key's whole allowance: its id with wrong secrets.
    const forged = await Promise.all(Array.from({ length: 20 }, () => call('GET', '/me', { host: ws.host, key: newToken(real.id) })));
    for (const res of forged) expectErrorEnvelope(res, 401, 'invalid_key');
    expect(await lastUsedAt(real.id)).toBe(stamped);
    const after = await call('GET', '/me', { host: ws.host, key: real.key });
    expect(after.status).toBe(200);
    expect(await lastUsedAt(real.id)).not.toBe(stamped);
  });

  async function lastUsedAt(id: string): Promise<string | null> {
    const keys = await listDeveloperKeys(adminStore(), ws.slug);
    return keys.find((k) => k.id === id)!.lastUsedAt;
  }
});

describe('403: suspended workspace', () => {
  it('rejects every request while suspended and accepts them again after resume', async () => {
    const suspended = await newWorkspace('suspend');
    await setWorkspaceStatus(adminStore(), suspended.slug, 'suspended');
    expectErrorEnvelope(await call('GET', '/me', { host: suspended.host, key: suspended.key }), 403, 'workspace_suspended');
    await setWorkspaceStatus(adminStore(), suspended.slug, 'active');
    expect((await call('GET', '/me', { host: suspended.host, key: suspended.key })).status).toBe(200);
  });
});

describe('404: unknown route', () => {
  it('answers in the error envelope, with a request id', async () => {
    const res = await call('GET', '/no/such/route', { host: ws.host, key: ws.key });
    expectErrorEnvelope(res, 404, 'route_not_found');
    expect(res.headers.get('x-request-id')).toMatch(/.+/);
  });

  // A known path with another method is a 405: test/integration/http-contract.test.ts.
});

describe('429: per-key rate limit', () => {
  /** Wait, if needed, so the next few seconds fall inside one rate-limit window. */
  async function freshWindow(key: string, host: string) {
    const probe = await call('GET', '/me', { host, key });
    const reset = Number(probe.headers.get('ratelimit-reset'));
    if (reset < 15) await new Promise((r) => setTimeout(r, (reset + 0.5) * 1000));
  }

  it('answers 429 with Retry-After once the key used its allowance, counted across concurrent requests', async () => {
    const limited = await newKey(ws.slug, [], { rateLimitPerMinute: 5 });
    await freshWindow(ws.key, ws.host);
    // Ten concurrent requests race for five slots: the count lives in DynamoDB, not in any one process.
    const results = await Promise.all(Array.from({ length: 10 }, () => call('GET', '/me', { host: ws.host, key: limited.key })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    const rejected = results.find((r) => r.status === 429)!;
    expectErrorEnvelope(rejected, 429, 'rate_limited');
    expect(rejected.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(Number(rejected.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(rejected.headers.get('ratelimit-remaining')).toBe('0');
    expect(rejected.headers.get('ratelimit-limit')).toBe('5');
  });

  it("one key's limit does not affect another key", async () => {
    const limited = await newKey(ws.slug, [], { rateLimitPerMinute: 1 });
    await freshWindow(ws.key, ws.host);
    await call('GET', '/me', { host: ws.host, key: limited.key });
    expect((await call('GET', '/me', { host: ws.host, key: limited.key })).status).toBe(429);
    expect((await call('GET', '/me', { host: ws.host, key: ws.key })).status).toBe(200);
  });
});
