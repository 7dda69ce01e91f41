/**
 * The key's rate-limit count runs beside the operation (issue 31): a read costs two round trips one
 * after the other (the workspace and key, then the count beside the operation's own read), and what
 * a request over its limit read never reaches it; a write waits for the count, so nothing is written,
 * queued or sent for a request over its limit. Depths are the sandbox's X-Sandbox-DynamoDB-Depth.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { revokeDeveloperKey } from '../../lib/admin/developer-keys.ts';
import { setRequestBudget, setWorkspaceStatus } from '../../lib/admin/workspaces.ts';
import { keys } from '../../lib/platform/data/keys.ts';
import {
  adminStore,
  call,
  dynamoDbCalls,
  dynamoDbDepth,
  expectErrorEnvelope,
  newKey,
  newWorkspace,
  type TestWorkspace,
} from '../support/fixtures.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

let ws: TestWorkspace;

beforeAll(async () => {
  ws = await newWorkspace('verdict');
  // A budget far above anything here, so each answer's RateLimit-* headers are the key's (the tighter).
  await setRequestBudget(adminStore(), ws.slug, { requestsPerSecond: 100_000, burst: 1_000_000 });
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

/** The rate-limit window a request sent now counts in (60 s in the tests). */
const currentWindow = () => Math.floor(Date.now() / 60_000);

async function sleepUntil(epochMs: number): Promise<void> {
  const wait = epochMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}

async function keyItem(id: string): Promise<Record<string, any>> {
  const { Item } = await adminStore().db.send(
    new GetCommand({ TableName: adminStore().table, Key: keys.developerKey(ws.slug, id), ConsistentRead: true }),
  );
  return Item!;
}

/** The key's counter, window → requests (lib/platform/data/developer-keys.ts). */
const counterOf = async (id: string) => (await keyItem(id)).rlWindows;

async function setCounter(id: string, windows: Record<string, number>): Promise<void> {
  await adminStore().db.send(
    new UpdateCommand({
      TableName: adminStore().table,
      Key: keys.developerKey(ws.slug, id),
      UpdateExpression: 'SET rlWindows = :windows',
      ExpressionAttributeValues: { ':windows': windows },
    }),
  );
}

async function ideaCount(): Promise<number> {
  const res = await call('GET', '/ideas?limit=1', { host: ws.host, key: ws.key });
  expect(res.status, res.text).toBe(200);
  return res.body.pagination.total;
}

describe('a read', () => {
  it('costs its own reads beside the counts: five calls, two round trips one after the other', async () => {
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Depth of a read' } });
    expect(created.status, created.text).toBe(201);
    const read = await call('GET', `/ideas/${created.body.data.id}`, { host: ws.host, key: ws.key });
    expect(read.status).toBe(200);
    // The workspace, key and budget shard; then the counts, the idea and its vote-count shards at once.
    expect([dynamoDbCalls(read), dynamoDbDepth(read)]).toEqual([5, 2]);
    const me = await call('GET', '/me', { host: ws.host, key: ws.key });
    expect([dynamoDbCalls(me), dynamoDbDepth(me)]).toEqual([3, 2]);
  });

  it("starts a new rate-limit window with the same one call, and drops the entries of windows long past from the key's counter", async () => {
    await freshWindow();
    const key = await newKey(ws.slug, [], { rateLimitPerMinute: 50 });
    // The key's counter as 49 requests of a window long past left it.
    await setCounter(key.id, { [String(currentWindow() - 5)]: 49 });
    const first = await call('GET', '/me', { host: ws.host, key: key.key });
    expect([first.status, dynamoDbCalls(first), dynamoDbDepth(first), first.headers.get('ratelimit-remaining')]).toEqual([200, 3, 2, '49']);
    expect(await counterOf(key.id)).toEqual({ [String(currentWindow())]: 1 });
  });

  it('counts a request in its own window when an instance whose clock runs ahead has counted in the next one', async () => {
    await freshWindow();
    const key = await newKey(ws.slug, [], { rateLimitPerMinute: 50 });
    // What a request of the next window, sent by an instance a little ahead, left: the old counter
    // could neither add to it nor reset it, and gave up with a 502 after three tries (issue 37).
    await setCounter(key.id, { [String(currentWindow() + 1)]: 3 });
    const res = await call('GET', '/me', { host: ws.host, key: key.key });
    expect([res.status, dynamoDbCalls(res), res.headers.get('ratelimit-remaining')]).toEqual([200, 3, '49']);
    expect(await counterOf(key.id)).toEqual({ [String(currentWindow())]: 1, [String(currentWindow() + 1)]: 3 });
  });

  it('makes the counter of a key made before it was a map at its first count, and drops the old one', async () => {
    await freshWindow();
    const key = await newKey(ws.slug, [], { rateLimitPerMinute: 50 });
    await adminStore().db.send(
      new UpdateCommand({
        TableName: adminStore().table,
        Key: keys.developerKey(ws.slug, key.id),
        UpdateExpression: 'SET rlWindow = :window, rlCount = :count REMOVE rlWindows',
        ExpressionAttributeValues: { ':window': currentWindow(), ':count': 7 },
      }),
    );
    const answers = await Promise.all(Array.from({ length: 6 }, () => call('GET', '/me', { host: ws.host, key: key.key })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    // A fresh count (the old window's 7 is not carried over), each request its own number.
    expect(answers.map((a) => Number(a.headers.get('ratelimit-remaining'))).sort((a, b) => b - a)).toEqual([49, 48, 47, 46, 45, 44]);
    const item = await keyItem(key.id);
    expect([item.rlWindows, item.rlWindow, item.rlCount]).toEqual([{ [String(currentWindow())]: 6 }, undefined, undefined]);
  });

  it('counts concurrent requests across the turn of a window exactly, and answers none of them 5xx', async () => {
    const limit = 10_000;
    const key = await newKey(ws.slug, [], { rateLimitPerMinute: limit });
    const windowMs = 60_000;
    const turn = Math.ceil((Date.now() + 2000) / windowMs) * windowMs;
    await sleepUntil(turn - 1500);
    expect((await call('GET', '/me', { host: ws.host, key: key.key })).status).toBe(200);
    // 60 requests from 400 ms before the turn to 400 ms after it, one every ~13 ms, none awaited.
    await sleepUntil(turn - 400);
    const sent: Promise<Awaited<ReturnType<typeof call>>>[] = [];
    for (let i = 0; i < 60; i++) {
      sent.push(call('GET', '/me', { host: ws.host, key: key.key }));
      await sleepUntil(turn - 400 + (i + 1) * 13);
    }
    const answers = await Promise.all(sent);
    expect(
      answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.body?.error}`),
      'no request at the turn fails',
    ).toEqual([]);
    // Each request's number in its window (limit - remaining); the window by the seconds to its end.
    const used = (a: (typeof answers)[number]) => limit - Number(a.headers.get('ratelimit-remaining'));
    const before = answers.filter((a) => Number(a.headers.get('ratelimit-reset')) <= 30).map(used);
    const after = answers.filter((a) => Number(a.headers.get('ratelimit-reset')) > 30).map(used);
    expect(before.length + after.length).toBe(60);
    const ascending = (list: number[]) => [...list].sort((a, b) => a - b);
    const run = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
    // Exactly one number each, none lost or doubled: 2… after the probe before the turn, 1… after it.
    expect(ascending(before)).toEqual(run(2, before.length));
    expect(ascending(after)).toEqual(run(1, after.length));
    const next = await call('GET', '/me', { host: ws.host, key: key.key });
    expect(used(next)).toBe(after.length + 1);
  }, 120_000);

  it('over the limit is answered 429 with nothing of what it read, though the read ran', async () => {
    await freshWindow();
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Read over the limit' } });
    const limited = await keyWithAllowance(1, 1);
    const refused = await call('GET', `/ideas/${created.body.data.id}`, { host: ws.host, key: limited.key });
    expectErrorEnvelope(refused, 429, 'rate_limited');
    expect(refused.text).not.toContain('Read over the limit');
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    // The workspace and key, the counts, and the idea's reads that ran beside them: still two round trips.
    expect([dynamoDbCalls(refused), dynamoDbDepth(refused)]).toEqual([5, 2]);
  });
});

describe('a write', () => {
  it('waits for the count: a create costs three round trips one after the other', async () => {
    // A title like no other idea here: a create also looks up similar ideas beside the count, and when
    // there are any, their BatchGetItem could end before the counts do, which the sandbox's depth (by
    // each call's start and end) would then chain the write after. That read is not this test's.
    const created = await call('POST', '/ideas', { host: ws.host, key: ws.key, body: { title: 'Zebra quokka umbrella' } });
    expect(created.status, created.text).toBe(201);
    expect(dynamoDbDepth(created)).toBe(3);
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
