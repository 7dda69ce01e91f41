/** Optimistic concurrency (ETag / If-Match) and safe retries (Idempotency-Key) on ideas. */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lib/platform/data/keys.ts';
import { adminStore, clientFor, expectErrorEnvelope, sandbox, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, etagOf, ideasWorkspace } from '../support/ideas.ts';

let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;

beforeAll(async () => {
  ws = await ideasWorkspace('ideas-occ');
  api = clientFor(ws);
});

describe('ETag', () => {
  it('carries the version on every single-idea response and moves with each change', async () => {
    const created = await createIdea(ws);
    const { id } = created.body.data;
    expect(etagOf(created)).toBe('"1"');
    expect(etagOf(await api.get(`/ideas/${id}`))).toBe('"1"');
    const patched = await api.patch(`/ideas/${id}`, { body: { status: 'planned' } });
    expect(etagOf(patched)).toBe('"2"');
    expect(patched.body.data.version).toBe(2);
    const replaced = await api.put(`/ideas/${id}`, { body: { title: 'Again' } });
    expect(etagOf(replaced)).toBe('"3"');
    expect(etagOf(await api.get(`/ideas/${id}`))).toBe('"3"');
  });
});

describe.each([
  ['PATCH', (id: string, headers: Record<string, string>) => api.patch(`/ideas/${id}`, { body: { status: 'done' }, headers })],
  ['PUT', (id: string, headers: Record<string, string>) => api.put(`/ideas/${id}`, { body: { title: 'Replaced' }, headers })],
  ['DELETE', (id: string, headers: Record<string, string>) => api.delete(`/ideas/${id}`, { headers })],
] as const)('%s with If-Match', (_method, write) => {
  it('succeeds when the ETag is current', async () => {
    const created = await createIdea(ws);
    const res = await write(created.body.data.id, { 'If-Match': etagOf(created) });
    expect(res.status, res.text).toBe(200);
  });

  it('answers 409 version_conflict with the current ETag when it is stale, and changes nothing', async () => {
    const created = await createIdea(ws);
    const { id } = created.body.data;
    const moved = await api.patch(`/ideas/${id}`, { body: { description: 'someone else was faster' } });
    const res = await write(id, { 'If-Match': etagOf(created) });
    expectErrorEnvelope(res, 409, 'version_conflict');
    expect(res.headers.get('etag')).toBe('"2"');
    const now = await api.get(`/ideas/${id}`);
    expect(now.status).toBe(200);
    expect(now.body.data).toEqual(moved.body.data);
  });

  it('proceeds without If-Match (last writer wins) and with If-Match: *', async () => {
    for (const headers of [{}, { 'If-Match': '*' }] as Record<string, string>[]) {
      const created = await createIdea(ws);
      await api.patch(`/ideas/${created.body.data.id}`, { body: { description: 'moved on' } });
      const res = await write(created.body.data.id, headers);
      expect(res.status, res.text).toBe(200);
    }
  });

  it('accepts any of several listed ETags, and the bare version without quotes', async () => {
    const created = await createIdea(ws);
    expect((await write(created.body.data.id, { 'If-Match': '"7", "1"' })).status).toBe(200);
    const other = await createIdea(ws);
    expect((await write(other.body.data.id, { 'If-Match': '1' })).status).toBe(200);
  });

  it('answers 404 (not 409) for an idea that does not exist, whatever the If-Match', async () => {
    expectErrorEnvelope(await write('01900000-0000-7000-8000-0000000000cc', { 'If-Match': '"1"' }), 404, 'not_found');
  });

  it('answers 400 invalid_header for a malformed or weak If-Match', async () => {
    const created = await createIdea(ws);
    for (const value of ['version 1', '"abc"', 'W/"1"', '"1"x']) {
      const res = await write(created.body.data.id, { 'If-Match': value });
      expectErrorEnvelope(res, 400, 'invalid_header');
      expect(res.body.issues[0].path).toBe('header.If-Match');
    }
    expect((await api.get(`/ideas/${created.body.data.id}`)).body.data.version).toBe(1);
  });
});

describe('PATCH races', () => {
  it('lets exactly one of several concurrent PATCHes with the same If-Match win; the others get 409', async () => {
    const created = await createIdea(ws);
    const { id } = created.body.data;
    const statuses = ['new', 'planned', 'done', 'new', 'planned', 'done', 'new', 'planned'];
    const results = await Promise.all(
      statuses.map((status) => api.patch(`/ideas/${id}`, { body: { status }, headers: { 'If-Match': '"1"' } })),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((r) => r.status !== 200)) expectErrorEnvelope(loser, 409, 'version_conflict');
    const now = await api.get(`/ideas/${id}`);
    expect(now.body.data.version).toBe(2);
    expect(now.body.data.status).toBe(winners[0]!.body.data.status);
  });

  it('applies every concurrent PATCH without If-Match: no lost version bumps', async () => {
    const created = await createIdea(ws);
    const { id } = created.body.data;
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.patch(`/ideas/${id}`, { body: { description: `edit ${i}` } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(results.map((r) => r.body.data.version).sort()).toEqual([2, 3, 4, 5, 6, 7]);
    expect((await api.get(`/ideas/${id}`)).body.data.version).toBe(7);
  });

  it('an empty PATCH with a stale If-Match is a 409 too', async () => {
    const created = await createIdea(ws);
    await api.patch(`/ideas/${created.body.data.id}`, { body: { status: 'done' } });
    expectErrorEnvelope(
      await api.patch(`/ideas/${created.body.data.id}`, { body: {}, headers: { 'If-Match': '"1"' } }),
      409,
      'version_conflict',
    );
  });
});

describe('POST /ideas with Idempotency-Key', () => {
  async function ideaItems(slug: string): Promise<number> {
    const { Items = [] } = await adminStore().db.send(
      new QueryCommand({
        TableName: sandbox.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':prefix': 'IDEA#' },
      }),
    );
    return Items.length;
  }

  it('returns the first response for a retry with the same body, and creates nothing new', async () => {
    const local = await ideasWorkspace('ideas-idem');
    const client = clientFor(local);
    const headers = { 'Idempotency-Key': 'retry-1' };
    const body = { title: 'Retry me', status: 'new', submitter: { email: 'ann@example.com' }, customerContext: { a: 1, b: [2] } };
    const first = await client.post('/ideas', { body, headers });
    expect(first.status).toBe(201);
    // The same body with keys in another order is the same request.
    const again = await client.post('/ideas', {
      rawBody: JSON.stringify({
        customerContext: { b: [2], a: 1 },
        submitter: { email: 'ann@example.com' },
        status: 'new',
        title: 'Retry me',
      }),
      headers,
    });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe('"1"');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await ideaItems(local.slug)).toBe(1);
    expect((await client.get('/ideas')).body.pagination.total).toBe(1);
  });

  it('replays the first response even after the idea changed', async () => {
    const headers = { 'Idempotency-Key': 'retry-after-change' };
    const first = await api.post('/ideas', { body: { title: 'Original' }, headers });
    await api.patch(`/ideas/${first.body.data.id}`, { body: { title: 'Changed' } });
    const again = await api.post('/ideas', { body: { title: 'Original' }, headers });
    expect(again.body).toEqual(first.body);
  });

  it('answers 409 idempotency_key_reused for the same key with a different body, and creates nothing', async () => {
    const local = await ideasWorkspace('ideas-idem-reuse');
    const client = clientFor(local);
    const headers = { 'Idempotency-Key': 'reused' };
    await client.post('/ideas', { body: { title: 'First' }, headers });
    expectErrorEnvelope(await client.post('/ideas', { body: { title: 'Second' }, headers }), 409, 'idempotency_key_reused');
    expectErrorEnvelope(
      await client.post('/ideas', { body: { title: 'First', description: 'more' }, headers }),
      409,
      'idempotency_key_reused',
    );
    expect(await ideaItems(local.slug)).toBe(1);
  });

  it('creates exactly one idea when the same request races with itself', async () => {
    const local = await ideasWorkspace('ideas-idem-race');
    const client = clientFor(local);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => client.post('/ideas', { body: { title: 'Raced' }, headers: { 'Idempotency-Key': 'race' } })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await ideaItems(local.slug)).toBe(1);
    expect((await client.get('/ideas')).body.pagination.total).toBe(1);
  });

  it('keeps keys apart per workspace, and different keys create different ideas', async () => {
    const other = await ideasWorkspace('ideas-idem-other');
    const a = await api.post('/ideas', { body: { title: 'Same' }, headers: { 'Idempotency-Key': 'shared-key' } });
    const b = await clientFor(other).post('/ideas', { body: { title: 'Same' }, headers: { 'Idempotency-Key': 'shared-key' } });
    const c = await api.post('/ideas', { body: { title: 'Same' }, headers: { 'Idempotency-Key': 'another-key' } });
    expect(b.status).toBe(201);
    expect(new Set([a.body.data.id, b.body.data.id, c.body.data.id]).size).toBe(3);
  });

  it('forgets a key after 24 hours: the same key then creates a new idea', async () => {
    const headers = { 'Idempotency-Key': 'expiring' };
    const first = await api.post('/ideas', { body: { title: 'Old' }, headers });
    // Age the record past its window, as 24 hours would (DynamoDB TTL deletes it lazily, later).
    await adminStore().db.send(
      new UpdateCommand({
        TableName: sandbox.tableName,
        Key: keys.idempotency(ws.slug, 'POST /ideas', 'expiring'),
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const second = await api.post('/ideas', { body: { title: 'New' }, headers });
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
  });

  it('remembers only successes: a rejected request can be retried with the same key', async () => {
    const headers = { 'Idempotency-Key': 'fix-and-retry' };
    expectErrorEnvelope(await api.post('/ideas', { body: { title: 'x', status: 'nope' }, headers }), 400, 'invalid_body');
    expect((await api.post('/ideas', { body: { title: 'x', status: 'new' }, headers })).status).toBe(201);
  });

  it('answers 400 invalid_header for an empty, over-long or non-ASCII key', async () => {
    for (const key of [' ', 'k'.repeat(256), 'clé']) {
      const res = await api.post('/ideas', { body: { title: 'x' }, headers: { 'Idempotency-Key': key } });
      expectErrorEnvelope(res, 400, 'invalid_header');
      expect(res.body.issues[0].path).toBe('header.Idempotency-Key');
    }
  });

  it('stores the record with a TTL 24 hours ahead, holding only a digest of the body', async () => {
    const headers = { 'Idempotency-Key': 'inspect-me' };
    const before = Math.floor(Date.now() / 1000);
    await api.post('/ideas', { body: { title: 'Inspect', submitter: { email: 'secret@example.com' } }, headers });
    const { Items = [] } = await adminStore().db.send(
      new QueryCommand({
        TableName: sandbox.tableName,
        KeyConditionExpression: 'pk = :pk AND sk = :sk',
        ExpressionAttributeValues: {
          ':pk': keys.workspacePk(ws.slug),
          ...{ ':sk': keys.idempotency(ws.slug, 'POST /ideas', 'inspect-me').sk },
        },
      }),
    );
    const record = Items[0]!;
    expect(record.ttl).toBeGreaterThanOrEqual(before + 24 * 3600);
    expect(record.ttl).toBeLessThanOrEqual(before + 24 * 3600 + 5);
    expect(record.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(record)).not.toContain('secret@example.com');
  });
});
