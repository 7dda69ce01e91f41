/**
 * The key's rate-limit count runs beside the operation (issue 31): a read costs two round trips one
 * after the other (the workspace and key, then the count beside the operation's own read), and what
 * a request over its limit read never reaches it; a write waits for the count, so nothing is written,
 * queued or sent for a request over its limit. Depths are the sandbox's X-Sandbox-DynamoDB-Depth.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { setWorkspaceStatus } from '../../lib/admin/workspaces.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import {
  type ApiResponse,
  adminStore,
  call,
  dynamoDbCalls,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const depth = (res: ApiResponse) => Number(res.headers.get('x-sandbox-dynamodb-depth'));

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await newWorkspace('verdict');
});

/** Wait, if needed, so the next 15 s fall inside one rate-limit window (60 s in the tests). */
async function freshWindow(): Promise<void> {
  const probe = await call('GET', '/me', { host: ws.host, key: ws.key });
  const reset = Number(probe.headers.get('ratelimit-reset'));
  if (reset < 15) await new Promise((r) => setTimeout(r, (reset + 0.5) * 1000));
}

/** A key of `ws` that may make `allowance` requests a window, with `used` of them spent already. */
async function keyWithAllowance(allowance: number, used = 0): Promise<{ id: string; key: string }> {
  const key = await newKey(ws.slug, ['ideas:read', 'ideas:write', 'webhooks:write'], { rateLimitPerMinute: allowance });
  for (let i = 0; i < used; i++) expect((await call('GET', '/me', { host: ws.host, key: key.key })).status).toBe(200);
  return key;
}

async function ideaCount(): Promise<number> {
  const res = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
  expect(res.status, res.text).toBe(200);
  return res.body.pagination.total;
}

describe('a read', () => {
  it('costs its own read beside the count: three calls, two round trips one after the other', async () => {
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Depth of a read' } });
    expect(created.status, created.text).toBe(201);
    const read = await call('GET', `/ideas/${created.body.data.id}`, { host: ws.host, key: ws.key });
    expect(read.status).toBe(200);
    expect([dynamoDbCalls(read), depth(read)]).toEqual([3, 2]);
    const me = await call('GET', '/me', { host: ws.host, key: ws.key });
    expect([dynamoDbCalls(me), depth(me)]).toEqual([2, 2]);
  });

  it('starts a new rate-limit window with one call: the key read says the last count was in an older window', async () => {
    const key = await newKey(ws.slug, [], { rateLimitPerMinute: 50 });
    // The key's counter as 49 requests of a window long past left it.
    await adminStore().db.send(
      new UpdateCommand({
        TableName: adminStore().table,
        Key: keys.developerKey(ws.slug, key.id),
        UpdateExpression: 'SET rlWindow = :old, rlCount = :count',
        ExpressionAttributeValues: { ':old': 1, ':count': 49 },
      }),
    );
    const first = await call('GET', '/me', { host: ws.host, key: key.key });
    expect([first.status, dynamoDbCalls(first), depth(first), first.headers.get('ratelimit-remaining')]).toEqual([200, 2, 2, '49']);
  });

  it('over the limit is answered 429 with nothing of what it read, though the read ran', async () => {
    await freshWindow();
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Read over the limit' } });
    const limited = await keyWithAllowance(1, 1);
    const refused = await call('GET', `/ideas/${created.body.data.id}`, { host: ws.host, key: limited.key });
    expectErrorEnvelope(refused, 429, 'rate_limited');
    expect(refused.text).not.toContain('Read over the limit');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // The workspace and key, the count, and the idea's read that ran beside it: still two round trips.
    expect([dynamoDbCalls(refused), depth(refused)]).toEqual([3, 2]);
  });
});

describe('a write', () => {
  it('waits for the count: a create costs three round trips one after the other', async () => {
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Depth of a write' } });
    expect(created.status, created.text).toBe(201);
    expect(depth(created)).toBe(3);
  });

  it('never happens for a request over the limit, however many race for the last slots', async () => {
    await freshWindow();
    const limited = await keyWithAllowance(5);
    const before = await ideaCount();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call('POST', '/ideas', { host: ws.host, key: limited.key, body: { title: `Race ${i}` } })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(7).fill(429)]);
    expect(await ideaCount()).toBe(before + 5);
  });

  it('over the limit leaves the record as it was', async () => {
    await freshWindow();
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Unchanged' } });
    const limited = await keyWithAllowance(1, 1);
    const refused = await call('PATCH', `/ideas/${created.body.data.id}`, {
      host: ws.host,
      key: limited.key,
      body: { title: 'Changed over the limit' },
    });
    expectErrorEnvelope(refused, 429, 'rate_limited');
    const after = await call('GET', `/ideas/${created.body.data.id}`, { host: ws.host, key: ws.key });
    expect([after.body.data.title, after.headers.get('etag')]).toEqual(['Unchanged', created.headers.get('etag')]);
  });

  describe('to a receiver', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
      return () => receiver.close();
    });

    it('over the limit sends no verification POST to it and leaves the webhook disabled', async () => {
      await freshWindow();
      const hook = await call('POST', '/webhooks', {
        host: ws.host,
        key: ws.key,
        body: { name: 'Over the limit', url: receiver.url, events: ['idea.submitted'] },
      });
      expect(hook.status, hook.text).toBe(201);
      const limited = await keyWithAllowance(1, 1);
      const refused = await call('POST', `/webhooks/${hook.body.webhook.id}/enable`, { host: ws.host, key: limited.key });
      expectErrorEnvelope(refused, 429, 'rate_limited');
      const read = await call('GET', `/webhooks/${hook.body.webhook.id}`, { host: ws.host, key: ws.key });
      expect(read.body.webhook.enabled).toBe(false);
      expect(receiver.requests).toEqual([]);
      // Within the limit the same request verifies the receiver (so the refusal above was the limit's).
      const enabled = await call('POST', `/webhooks/${hook.body.webhook.id}/enable`, { host: ws.host, key: ws.key });
      expect(enabled.status, enabled.text).toBe(200);
      expect(receiver.requests).toHaveLength(1);
    });
  });
});

describe('the order of checks, with the count beside them', () => {
  it('answers 401 for a revoked key even over its limit', async () => {
    await freshWindow();
    const limited = await keyWithAllowance(1, 1);
    await revokeDeveloperKey(adminStore(), limited.id);
    expectErrorEnvelope(await call('GET', '/me', { host: ws.host, key: limited.key }), 401, 'key_revoked');
  });

  it('answers 429 before 403 and 400: a suspended workspace, a missing permission, an invalid body', async () => {
    await freshWindow();
    const limited = await keyWithAllowance(1, 1);
    expectErrorEnvelope(await call('GET', '/journeys', { host: ws.host, key: limited.key }), 429, 'rate_limited');
    expectErrorEnvelope(await call('POST', '/ideas', { host: ws.host, key: limited.key, body: { title: 1 } }), 429, 'rate_limited');
    const own = await newWorkspace('verdict-suspended');
    const ownLimited = await newKey(own.slug, [], { rateLimitPerMinute: 1 });
    expect((await call('GET', '/me', { host: own.host, key: ownLimited.key })).status).toBe(200);
    await setWorkspaceStatus(adminStore(), own.slug, 'suspended');
    expectErrorEnvelope(await call('GET', '/me', { host: own.host, key: ownLimited.key }), 429, 'rate_limited');
    expectErrorEnvelope(await call('GET', '/me', { host: own.host, key: own.key }), 403, 'workspace_suspended');
  });
});
