/** The webhook management API over real HTTP against the sandbox, with a real receiver for the enable step. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
import { type Receiver, startReceiver, verifySignature } from '../support/webhook-receiver.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let receiver: Receiver;

beforeAll(async () => {
  ws = await newWorkspace('hooks-api');
  api = clientFor(ws);
  receiver = await startReceiver();
});

afterAll(async () => {
  await receiver.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Product board sync',
  url: receiver.url,
  events: ['idea.submitted', 'idea.status_changed'],
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const res = await api.post('/webhooks', { body: body(overrides) });
  expect(res.status, res.text).toBe(201);
  return res.body.webhook;
}

/** Make sure the next request of this key falls in the same rate-limit window as this one (see platform-auth.test.ts). */
async function warmRateLimitWindow(): Promise<void> {
  const res = await api.get('/me');
  if (Number(res.headers.get('ratelimit-reset')) < 5) {
    await new Promise((r) => setTimeout(r, 6000));
    await api.get('/me');
  }
}

describe('POST /webhooks', () => {
  it('creates a disabled webhook and shows its secret once, in one transaction (3 DynamoDB calls)', async () => {
    await warmRateLimitWindow();
    const res = await api.post('/webhooks', { body: body() });
    expect(res.status).toBe(201);
    const { webhook } = res.body;
    expect(webhook).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Product board sync',
      url: receiver.url,
      secretPrefix: webhook.secret.slice(0, 10),
      authenticationConfigured: true,
      events: ['idea.submitted', 'idea.status_changed'],
      enabled: false,
      // Never enabled: nothing is held for it, so no reason to give.
      disabledReason: null,
      maxDeliveriesPerSecond: null,
      createdAt: expect.any(String),
      updatedAt: webhook.createdAt,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from(webhook.secret.slice(6), 'base64')).toHaveLength(32);
    expect(dynamoDbCalls(res)).toBe(4);

    const read = await api.get(`/webhooks/${webhook.id}`);
    expect(read.body.webhook).toEqual({ ...webhook, secret: undefined });
    expect(read.text).not.toContain(webhook.secret);
    expect(read.body.webhook).not.toHaveProperty('secret');
  });

  it('keeps each event kind once and stores the URL normalised', async () => {
    const webhook = await create({ url: 'http://LOCALHOST:9/a/../hook', events: ['idea.deleted', 'idea.deleted', 'idea.updated'] });
    expect(webhook.events).toEqual(['idea.deleted', 'idea.updated']);
    expect(webhook.url).toBe('http://localhost:9/hook');
  });

  it.each([
    ['no name', { name: undefined }, 'body.name'],
    ['a blank name', { name: '   ' }, 'body.name'],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, 'body.name'],
    ['no events', { events: [] }, 'body.events'],
    ['an unknown event kind', { events: ['idea.submitted', 'idea.liked'] }, 'body.events.1'],
    ['a relative URL', { url: '/hook' }, 'body.url'],
    ['a non-http URL', { url: 'ftp://example.com/hook' }, 'body.url'],
    ['an unknown field', { secret: 'whsec_mine' }, 'body'],
  ])('answers 400 invalid_body for %s', async (_, overrides, path) => {
    const res = await api.post('/webhooks', { body: body(overrides) });
    expectErrorEnvelope(res, 400, 'invalid_body');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toContain(path);
  });

  it('refuses credentials in the URL (400 webhook_url_not_allowed) and hosts that do not resolve (400 webhook_url_unresolvable)', async () => {
    const before = (await api.get('/webhooks')).body.webhooks.length;
    const withCredentials = await api.post('/webhooks', { body: body({ url: 'https://user:pass@example.com/hook' }) });
    expectErrorEnvelope(withCredentials, 400, 'webhook_url_not_allowed');
    expect(withCredentials.body.message).toContain('credentials');
    const unresolvable = await api.post('/webhooks', { body: body({ url: 'https://no-such-host.invalid/hook' }) });
    expectErrorEnvelope(unresolvable, 400, 'webhook_url_unresolvable');
    // Nothing half-written.
    expect((await api.get('/webhooks')).body.webhooks.length).toBe(before);
  });
});

describe('GET /webhooks and GET /webhooks/{id}', () => {
  it('lists every webhook of the workspace, oldest first, never with a secret (3 DynamoDB calls)', async () => {
    const other = await newWorkspace('hooks-list');
    const otherApi = clientFor(other);
    const first = (await otherApi.post('/webhooks', { body: body({ name: 'first' }) })).body.webhook;
    const second = (await otherApi.post('/webhooks', { body: body({ name: 'second' }) })).body.webhook;
    await otherApi.get('/me');
    const res = await otherApi.get('/webhooks');
    expect(res.status).toBe(200);
    expect(res.body.webhooks.map((w: { name: string }) => w.name)).toEqual(['first', 'second']);
    for (const secret of [first.secret, second.secret]) expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain('"secret"');
    expect(dynamoDbCalls(res)).toBe(4);
  });

  it("answers 404 for an unknown id and for another workspace's webhook, 400 for a malformed id", async () => {
    const mine = await create();
    const other = await newWorkspace('hooks-other');
    expectErrorEnvelope(await api.get(`/webhooks/${randomUUID()}`), 404, 'not_found');
    expectErrorEnvelope(await clientFor(other).get(`/webhooks/${mine.id}`), 404, 'not_found');
    expectErrorEnvelope(await clientFor(other).delete(`/webhooks/${mine.id}`), 404, 'not_found');
    expectErrorEnvelope(await api.get('/webhooks/not-a-uuid'), 400, 'invalid_path');
  });
});

describe('PATCH /webhooks/{id}', () => {
  it('changes name and events and keeps the webhook enabled (3 DynamoDB calls)', async () => {
    const webhook = await create();
    expect((await api.post(`/webhooks/${webhook.id}/enable`)).status).toBe(200);
    await warmRateLimitWindow();
    const res = await api.patch(`/webhooks/${webhook.id}`, { body: { name: 'Renamed', events: ['idea.deleted'] } });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ name: 'Renamed', events: ['idea.deleted'], url: webhook.url, enabled: true });
    expect(Date.parse(res.body.webhook.updatedAt)).toBeGreaterThan(Date.parse(webhook.updatedAt) - 1);
    expect(dynamoDbCalls(res)).toBe(4);
  });

  it('disables the webhook when the URL changes, and not when the same URL is sent again', async () => {
    const webhook = await create();
    await api.post(`/webhooks/${webhook.id}/enable`);
    const same = await api.patch(`/webhooks/${webhook.id}`, { body: { url: webhook.url } });
    expect(same.body.webhook.enabled).toBe(true);
    const moved = await api.patch(`/webhooks/${webhook.id}`, { body: { url: `${receiver.url}/v2` } });
    expect(moved.status).toBe(200);
    expect(moved.body.webhook).toMatchObject({ url: `${receiver.url}/v2`, enabled: false });
    expect((await api.get(`/webhooks/${webhook.id}`)).body.webhook.enabled).toBe(false);
  });

  it('answers 400 for an empty or unknown change and 404 for an unknown webhook', async () => {
    const webhook = await create();
    expectErrorEnvelope(await api.patch(`/webhooks/${webhook.id}`, { body: {} }), 400, 'invalid_body');
    expectErrorEnvelope(await api.patch(`/webhooks/${webhook.id}`, { body: { enabled: true } }), 400, 'invalid_body');
    expectErrorEnvelope(
      await api.patch(`/webhooks/${webhook.id}`, { body: { url: 'https://a:b@example.com/' } }),
      400,
      'webhook_url_not_allowed',
    );
    expectErrorEnvelope(await api.patch(`/webhooks/${randomUUID()}`, { body: { name: 'x' } }), 404, 'not_found');
    expectErrorEnvelope(await api.patch(`/webhooks/${randomUUID()}`, { body: { url: receiver.url } }), 404, 'not_found');
  });
});

describe('DELETE /webhooks/{id}', () => {
  it('deletes the webhook (3 DynamoDB calls); a second delete is a 404', async () => {
    const webhook = await create();
    await warmRateLimitWindow();
    const res = await api.delete(`/webhooks/${webhook.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(dynamoDbCalls(res)).toBe(4);
    expectErrorEnvelope(await api.get(`/webhooks/${webhook.id}`), 404, 'not_found');
    expectErrorEnvelope(await api.delete(`/webhooks/${webhook.id}`), 404, 'not_found');
  });
});

describe('POST /webhooks/{id}/rotate', () => {
  it('issues a new secret, shown once, and disables the webhook (5 DynamoDB calls: the webhook and its waiting retries, then one transaction)', async () => {
    const webhook = await create();
    await api.post(`/webhooks/${webhook.id}/enable`);
    await warmRateLimitWindow();
    const res = await api.post(`/webhooks/${webhook.id}/rotate`);
    expect(res.status).toBe(200);
    expect(dynamoDbCalls(res)).toBe(6);
    const rotated = res.body.webhook;
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(webhook.secret);
    expect(rotated).toMatchObject({ id: webhook.id, enabled: false, secretPrefix: rotated.secret.slice(0, 10) });
    const read = await api.get(`/webhooks/${webhook.id}`);
    expect(read.body.webhook.secretPrefix).toBe(rotated.secretPrefix);
    expect(read.text).not.toContain(rotated.secret);
  });
});

describe('POST /webhooks/{id}/enable', () => {
  it('enables only after the receiver accepts a signed webhook.verification event (4 DynamoDB calls)', async () => {
    const webhook = await create();
    await warmRateLimitWindow();
    const res = await api.post(`/webhooks/${webhook.id}/enable`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.webhook).toMatchObject({ id: webhook.id, enabled: true });
    expect(res.body.webhook).not.toHaveProperty('secret');
    expect(dynamoDbCalls(res)).toBe(5);

    const verification = receiver.requests.filter((r) => r.json?.data?.webhookId === webhook.id).at(-1)!;
    expect(verification.headers.authorization).toBe(`Bearer ${webhook.secret}`);
    expect(verifySignature(webhook.secret, verification)).toEqual({
      type: 'webhook.verification',
      timestamp: expect.any(String),
      data: { webhookId: webhook.id, workspace: ws.slug },
    });
    expect(verification.headers['webhook-id']).toMatch(/^evt_verification_/);
  });

  it('stays disabled and says why when the receiver answers non-2xx, redirects, refuses or is too slow', async () => {
    const failing = await startReceiver();
    try {
      const webhook = (await api.post('/webhooks', { body: body({ url: failing.url }) })).body.webhook;
      const attempt = async () => api.post(`/webhooks/${webhook.id}/enable`);

      failing.respondWith(() => ({ status: 500 }));
      let res = await attempt();
      expectErrorEnvelope(res, 400, 'webhook_verification_failed');
      expect(res.body.message).toContain('the receiver answered 500');

      failing.respondWith(() => ({ status: 301, headers: { Location: 'http://169.254.169.254/latest/meta-data/' } }));
      res = await attempt();
      expectErrorEnvelope(res, 400, 'webhook_verification_failed');
      expect(res.body.message).toContain('redirect (301) not followed');

      failing.respondWith(() => ({ status: 200, delayMs: 12_000 }));
      res = await attempt();
      expectErrorEnvelope(res, 400, 'webhook_verification_failed');
      expect(res.body.message).toContain('timed out after 10 s');

      await failing.close();
      res = await attempt();
      expectErrorEnvelope(res, 400, 'webhook_verification_failed');
      expect(res.body.message).toContain('connection refused');

      expect((await api.get(`/webhooks/${webhook.id}`)).body.webhook.enabled).toBe(false);
    } finally {
      await failing.close();
    }
  });
});

describe('POST /webhooks/{id}/disable', () => {
  it('disables an enabled webhook, saying why (5 DynamoDB calls: the webhook and its waiting retries, then one transaction)', async () => {
    const webhook = await create();
    await api.post(`/webhooks/${webhook.id}/enable`);
    await warmRateLimitWindow();
    const res = await api.post(`/webhooks/${webhook.id}/disable`);
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ enabled: false, disabledReason: { code: 'manual', lastErrors: [] } });
    expect(dynamoDbCalls(res)).toBe(6);
  });
});

describe('GET /webhooks/{id}/deliveries', () => {
  it('is empty for a new webhook (7 DynamoDB calls, one round: the webhook and one Query per delivery range), 404 for an unknown one, 400 for a bad page', async () => {
    const webhook = await create();
    await warmRateLimitWindow();
    const res = await api.get(`/webhooks/${webhook.id}/deliveries`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, deliveries: [], pagination: { limit: 25, offset: 0, hasMore: false, nextCursor: null } });
    // Authorisation (3), then at once the webhook and its deliveries' 4 shard ranges (the range of records
    // written before the shards is read no more: they expired 30 days after it shipped).
    expect(dynamoDbCalls(res)).toBe(8);
    expectErrorEnvelope(await api.get(`/webhooks/${randomUUID()}/deliveries`), 404, 'not_found');
    expectErrorEnvelope(await api.get(`/webhooks/${webhook.id}/deliveries?limit=0`), 400, 'invalid_query');
  });
});

describe('permissions and module', () => {
  const writes = (id: string, deliveryId: string) =>
    [
      ['POST', '/webhooks', body()],
      ['PATCH', `/webhooks/${id}`, { name: 'x' }],
      ['DELETE', `/webhooks/${id}`, undefined],
      ['POST', `/webhooks/${id}/rotate`, undefined],
      ['POST', `/webhooks/${id}/enable`, undefined],
      ['POST', `/webhooks/${id}/disable`, undefined],
      ['POST', `/webhooks/${id}/deliveries/${deliveryId}/redeliver`, undefined],
    ] as const;
  const reads = (id: string) =>
    [
      ['GET', '/webhooks'],
      ['GET', `/webhooks/${id}`],
      ['GET', `/webhooks/${id}/deliveries`],
    ] as const;

  it('rotate with only webhooks:write is a 403 (it also needs ideas:read), as is every write', async () => {
    const webhook = await create();
    const writeOnly = await newKey(ws.slug, ['webhooks:write']);
    const rotate = await call('POST', `/webhooks/${webhook.id}/rotate`, { host: ws.host, key: writeOnly.key });
    expectErrorEnvelope(rotate, 403, 'missing_permission');
    expect(rotate.body.message).toContain('ideas:read');
    const readOnly = await newKey(ws.slug, ['webhooks:read', 'ideas:read']);
    for (const key of [writeOnly.key, readOnly.key]) {
      for (const [method, path, payload] of writes(webhook.id, `evt_${'0'.repeat(39)}`)) {
        expectErrorEnvelope(await call(method, path, { host: ws.host, key, body: payload }), 403, 'missing_permission');
      }
    }
    expect((await api.get(`/webhooks/${webhook.id}`)).body.webhook.secretPrefix).toBe(webhook.secretPrefix);
  });

  it('reads need webhooks:read; webhooks:read alone is enough', async () => {
    const webhook = await create();
    const writer = await newKey(ws.slug, ['webhooks:write', 'ideas:read']);
    const reader = await newKey(ws.slug, ['webhooks:read']);
    for (const [method, path] of reads(webhook.id)) {
      expectErrorEnvelope(await call(method, path, { host: ws.host, key: writer.key }), 403, 'missing_permission');
      expect((await call(method, path, { host: ws.host, key: reader.key })).status).toBe(200);
    }
    const full = await call('POST', '/webhooks', { host: ws.host, key: writer.key, body: body() });
    expect(full.status).toBe(201);
  });

  it('answers 403 module_disabled when the workspace has the webhooks module off', async () => {
    const off = await newWorkspace('hooks-module');
    await changeModules(adminStore(), off.slug, { disable: ['webhooks'] });
    expectErrorEnvelope(await clientFor(off).get('/webhooks'), 403, 'module_disabled');
    expectErrorEnvelope(await clientFor(off).post('/webhooks', { body: body() }), 403, 'module_disabled');
  });
});

describe('at most 50 webhooks per workspace', () => {
  it('refuses the 51st with 400 webhook_limit_reached, and frees a place on delete', async () => {
    const full = await newWorkspace('hooks-limit');
    const fullApi = clientFor(full);
    const ids: string[] = [];
    for (let batch = 0; batch < 5; batch++) {
      const created = await Promise.all(Array.from({ length: 10 }, () => fullApi.post('/webhooks', { body: body() })));
      for (const res of created) {
        expect(res.status, res.text).toBe(201);
        ids.push(res.body.webhook.id);
      }
    }
    const over = await fullApi.post('/webhooks', { body: body() });
    expectErrorEnvelope(over, 400, 'webhook_limit_reached');
    expect((await fullApi.get('/webhooks')).body.webhooks).toHaveLength(50);

    expect((await fullApi.delete(`/webhooks/${ids[0]}`)).status).toBe(200);
    expect((await fullApi.post('/webhooks', { body: body() })).status).toBe(201);
    expectErrorEnvelope(await fullApi.post('/webhooks', { body: body() }), 400, 'webhook_limit_reached');
  });

  it('holds under concurrency: at 47, eight concurrent creates give exactly three webhooks', async () => {
    const race = await newWorkspace('hooks-race');
    const raceApi = clientFor(race);
    for (let batch = 0; batch < 47; batch += 10) {
      const size = Math.min(10, 47 - batch);
      const created = await Promise.all(Array.from({ length: size }, () => raceApi.post('/webhooks', { body: body() })));
      for (const res of created) expect(res.status, res.text).toBe(201);
    }
    const results = await Promise.all(Array.from({ length: 8 }, () => raceApi.post('/webhooks', { body: body() })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const refused of results.filter((r) => r.status !== 201)) expectErrorEnvelope(refused, 400, 'webhook_limit_reached');
    expect((await raceApi.get('/webhooks')).body.webhooks).toHaveLength(50);
  });
});
