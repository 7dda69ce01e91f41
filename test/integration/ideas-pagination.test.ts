/** GET /ideas paging: newest first in a stable order, totals from the counter, every edge of limit and offset. */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientFor, dynamoDbCalls, expectErrorEnvelope, type TestWorkspace } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace, insideOneRateLimitWindow } from '../support/ideas.ts';

const COUNT = 102;
let ws: TestWorkspace;
let api: ReturnType<typeof clientFor>;
/** Every idea id, newest first, as the first full listing returned them. */
let order: string[];

beforeAll(async () => {
  ws = await ideasWorkspace('ideas-pages');
  api = clientFor(ws);
  // Concurrent creations all count themselves on the one counter item: none may be lost.
  for (let start = 0; start < COUNT; start += 25) {
    await Promise.all(Array.from({ length: Math.min(25, COUNT - start) }, (_, i) => createIdea(ws, { title: `Idea ${start + i}` })));
  }
  const [first, rest] = [await api.get('/ideas?limit=100'), await api.get('/ideas?limit=100&offset=100')];
  order = [...first.body.data, ...rest.body.data].map((idea: { id: string }) => idea.id);
}, 60_000);

describe('GET /ideas pagination', () => {
  it('counts every concurrently created idea in the total', async () => {
    const res = await api.get('/ideas');
    expect(res.body.pagination).toEqual({ limit: 25, offset: 0, total: COUNT, hasMore: true, nextCursor: expect.any(String) });
    expect(res.body.data).toHaveLength(25);
    expect(new Set(order).size).toBe(COUNT);
  });

  it('returns limit=100 ideas with hasMore, then the remaining ones', async () => {
    const first = await api.get('/ideas?limit=100');
    expect(first.body.data).toHaveLength(100);
    expect(first.body.pagination).toEqual({ limit: 100, offset: 0, total: COUNT, hasMore: true, nextCursor: expect.any(String) });
    const rest = await api.get('/ideas?limit=100&offset=100');
    expect(rest.body.data).toHaveLength(2);
    expect(rest.body.pagination).toEqual({ limit: 100, offset: 100, total: COUNT, hasMore: false, nextCursor: null });
  });

  it('rejects limit=101 with 400 invalid_query', async () => {
    expectErrorEnvelope(await api.get('/ideas?limit=101'), 400, 'invalid_query');
  });

  it('lists newest first: creation times never increase down the list', async () => {
    const { body } = await api.get('/ideas?limit=100');
    const times = body.data.map((idea: { createdAt: string }) => idea.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('keeps a stable order: small pages, walked to the end, give every idea once in the same order', async () => {
    const walked: string[] = [];
    let offset = 0;
    for (;;) {
      const res = await api.get(`/ideas?limit=7&offset=${offset}`);
      expect(res.body.pagination.total).toBe(COUNT);
      walked.push(...res.body.data.map((idea: { id: string }) => idea.id));
      if (!res.body.pagination.hasMore) break;
      offset += 7;
    }
    expect(walked).toEqual(order);
  });

  it('puts a new idea first, and later ideas before earlier ones', async () => {
    const local = await ideasWorkspace('ideas-order');
    const ids: string[] = [];
    for (const title of ['one', 'two', 'three']) {
      ids.push((await createIdea(local, { title })).body.data.id);
      await new Promise((r) => setTimeout(r, 5));
    }
    const { body } = await clientFor(local).get('/ideas');
    expect(body.data.map((idea: { id: string }) => idea.id)).toEqual(ids.reverse());
  });

  it('answers the last idea alone at offset total-1, and an empty page at offset total', async () => {
    const last = await api.get(`/ideas?offset=${COUNT - 1}`);
    expect(last.body.data.map((idea: { id: string }) => idea.id)).toEqual([order[COUNT - 1]]);
    expect(last.body.pagination).toEqual({ limit: 25, offset: COUNT - 1, total: COUNT, hasMore: false, nextCursor: null });
    const end = await api.get(`/ideas?offset=${COUNT}`);
    expect(end.body).toEqual({
      ok: true,
      data: [],
      pagination: { limit: 25, offset: COUNT, total: COUNT, hasMore: false, nextCursor: null },
    });
  });

  it('answers an offset far past the end (the largest allowed) with an empty page, in one DynamoDB read', async () => {
    await insideOneRateLimitWindow(ws);
    const res = await api.get('/ideas?limit=100&offset=2147483647');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      data: [],
      pagination: { limit: 100, offset: 2147483647, total: COUNT, hasMore: false, nextCursor: null },
    });
    expect(dynamoDbCalls(res)).toBe(4);
  });

  it('reads a full page of 100 with its total in one DynamoDB call beyond auth, and their vote counts in one more', async () => {
    await insideOneRateLimitWindow(ws);
    const res = await api.get('/ideas?limit=100');
    expect(res.body.data).toHaveLength(100);
    expect(dynamoDbCalls(res)).toBe(5);
  });

  it('lowers the total when an idea is deleted, and the page closes the gap', async () => {
    const local = await ideasWorkspace('ideas-pages-delete');
    const client = clientFor(local);
    const created = [];
    for (let i = 0; i < 4; i++) created.push((await createIdea(local, { title: `n${i}` })).body.data.id);
    await client.delete(`/ideas/${created[2]}`);
    const res = await client.get('/ideas?limit=2');
    expect(res.body.data.map((idea: { id: string }) => idea.id)).toEqual([created[3], created[1]]);
    expect(res.body.pagination).toEqual({ limit: 2, offset: 0, total: 3, hasMore: true, nextCursor: expect.any(String) });
  });
});
