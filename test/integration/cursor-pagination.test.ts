/**
 * Cursor pagination (lib/platform/pagination.ts): a full sync walks every record once, in the
 * offset order, and a cursor cannot be forged, tampered with or replayed in another workspace or list.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from '../../lib/webhooks/events.ts';
import { clientFor, expectErrorEnvelope, type TestWorkspace, useSandboxEnvironment } from '../support/fixtures.ts';
import { createIdea, ideasWorkspace } from '../support/ideas.ts';
import { createArticle, createCategory, kbWorkspace, para, publish, saveDraft } from '../support/knowledge-bank.ts';
import { newSurvey } from '../support/surveys.ts';

const COUNT = 23;
let ws: TestWorkspace;
let other: TestWorkspace;
let api: ReturnType<typeof clientFor>;
let byOffset: string[];

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((idea) => idea.id);

beforeAll(async () => {
  [ws, other] = await Promise.all([ideasWorkspace('cursor'), ideasWorkspace('cursor-other')]);
  api = clientFor(ws);
  for (let i = 0; i < COUNT; i++) await createIdea(ws, { title: `Idea ${i}` });
  await Promise.all([createIdea(other, { title: 'Elsewhere 1' }), createIdea(other, { title: 'Elsewhere 2' })]);
  byOffset = ids(await api.get('/ideas?limit=100'));
}, 60_000);

describe('GET /ideas with a cursor', () => {
  it('walks every idea once, in the offset order, with the offset and total of each page, ending on nextCursor null', async () => {
    const walked: string[] = [];
    const offsets: number[] = [];
    let res = await api.get('/ideas?limit=5');
    for (;;) {
      expect(res.status).toBe(200);
      expect(res.body.pagination.total).toBe(COUNT);
      offsets.push(res.body.pagination.offset);
      walked.push(...ids(res));
      if (!res.body.pagination.hasMore) break;
      expect(typeof res.body.pagination.nextCursor).toBe('string');
      res = await api.get(`/ideas?limit=5&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
    }
    expect(walked).toEqual(byOffset);
    expect(offsets).toEqual([0, 5, 10, 15, 20]);
    expect(res.body.pagination.nextCursor).toBeNull();
  });

  it('gives the same page for a cursor as for the offset it stands for', async () => {
    const first = await api.get('/ideas?limit=7');
    const next = await api.get(`/ideas?limit=7&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`);
    const atOffset = await api.get('/ideas?limit=7&offset=7');
    expect(ids(next)).toEqual(ids(atOffset));
    expect(next.body.pagination).toMatchObject({ limit: 7, offset: 7, total: COUNT, hasMore: true });
  });

  it('continues past an idea deleted after its cursor was issued', async () => {
    const first = await api.get('/ideas?limit=3');
    const lastId = ids(first)[2]!;
    const victim = await api.get(`/ideas/${lastId}`);
    const deleted = await clientFor(ws).delete(`/ideas/${lastId}`, { headers: { 'If-Match': victim.headers.get('etag')! } });
    expect(deleted.status).toBe(200);
    const next = await api.get(`/ideas?limit=3&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`);
    expect(ids(next)).toEqual(byOffset.slice(3, 6));
    byOffset = byOffset.filter((id) => id !== lastId);
  });

  it('refuses a cursor from another workspace with 400 invalid_cursor, showing none of its ideas', async () => {
    const theirs = await clientFor(other).get('/ideas?limit=1');
    const res = await api.get(`/ideas?limit=1&cursor=${encodeURIComponent(theirs.body.pagination.nextCursor)}`);
    expectErrorEnvelope(res, 400, 'invalid_cursor');
    // And the other way round: our cursor in their workspace.
    const ours = await api.get('/ideas?limit=1');
    expectErrorEnvelope(
      await clientFor(other).get(`/ideas?limit=1&cursor=${encodeURIComponent(ours.body.pagination.nextCursor)}`),
      400,
      'invalid_cursor',
    );
  });

  it('refuses a cursor whose payload was edited to name another workspace', async () => {
    const ours = await api.get('/ideas?limit=1');
    const [payload, signature] = (ours.body.pagination.nextCursor as string).split('.');
    const decoded = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = { ...decoded, w: other.slug, k: { ...decoded.k, pk: `WS#${other.slug}` } };
    const cursor = `${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${signature}`;
    expectErrorEnvelope(await clientFor(other).get(`/ideas?limit=1&cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor');
  });

  it('refuses garbage cursors with 400 invalid_cursor', async () => {
    for (const cursor of ['x', 'a.b', 'a.b.c', `${Buffer.from('{}').toString('base64url')}.AAAA`]) {
      expectErrorEnvelope(await api.get(`/ideas?cursor=${encodeURIComponent(cursor)}`), 400, 'invalid_cursor');
    }
  });

  it('refuses offset and cursor together with 400 invalid_query', async () => {
    const first = await api.get('/ideas?limit=2');
    expectErrorEnvelope(
      await api.get(`/ideas?limit=2&offset=4&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`),
      400,
      'invalid_query',
    );
  });
});

describe('GET /webhooks/{id}/deliveries with a cursor', () => {
  it('walks every delivery once, newest first, and refuses a cursor of another webhook or list', async () => {
    useSandboxEnvironment();
    const { recordNewDelivery } = await import('../../lib/webhooks/store/deliveries.ts');
    const create = (name: string) => api.post('/webhooks', { body: { name, url: 'http://127.0.0.1:9/hook', events: ['idea.submitted'] } });
    const [a, b] = [await create('a'), await create('b')];
    expect(a.status, a.text).toBe(201);
    const hookA = a.body.webhook.id as string;
    const hookB = b.body.webhook.id as string;
    const eventIds = Array.from({ length: 7 }, (_, i) => `0000${i}-event`);
    for (const id of eventIds) {
      const event = { id, type: 'idea.submitted', timestamp: new Date().toISOString(), data: {} } as unknown as WebhookEvent;
      await recordNewDelivery(ws.slug, hookA, event, '{}');
    }
    const walked: string[] = [];
    let res = await api.get(`/webhooks/${hookA}/deliveries?limit=3`);
    for (;;) {
      expect(res.status).toBe(200);
      walked.push(...res.body.deliveries.map((d: { eventId: string }) => d.eventId));
      if (!res.body.pagination.hasMore) break;
      res = await api.get(`/webhooks/${hookA}/deliveries?limit=3&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
    }
    expect(walked).toEqual([...eventIds].reverse());
    expect(res.body.pagination).toEqual({ limit: 3, offset: 6, hasMore: false, nextCursor: null });

    const cursorOfA = (await api.get(`/webhooks/${hookA}/deliveries?limit=1`)).body.pagination.nextCursor;
    expectErrorEnvelope(await api.get(`/webhooks/${hookB}/deliveries?cursor=${encodeURIComponent(cursorOfA)}`), 400, 'invalid_cursor');
    expectErrorEnvelope(await api.get(`/ideas?cursor=${encodeURIComponent(cursorOfA)}`), 400, 'invalid_cursor');
  });
});

describe('GET /journeys and GET /journeys/{id}/versions with a cursor', () => {
  it('walks every journey once (with and without the kind filter) and refuses a cursor of another filter', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api.post('/journeys', { body: { titleEn: `Journey ${i}` } });
      expect(res.status, res.text).toBe(200);
      made.push(res.body.journeyId);
    }
    const micro = await api.post(`/journeys/${made[0]}/micro-journeys`, { body: { titleEn: 'Checkout' } });
    expect(micro.status, micro.text).toBe(200);

    const walk = async (query: string) => {
      const ids: string[] = [];
      let res = await api.get(`/journeys?limit=2${query}`);
      for (;;) {
        expect(res.status, res.text).toBe(200);
        ids.push(...res.body.journeys.map((j: { id: string }) => j.id));
        if (!res.body.pagination.hasMore) return { ids, last: res };
        res = await api.get(`/journeys?limit=2${query}&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
      }
    };
    const byOffset = (await api.get('/journeys?limit=100')).body.journeys.map((j: { id: string }) => j.id);
    const all = await walk('');
    expect(all.ids).toEqual(byOffset);
    expect(all.last.body.pagination).toMatchObject({ offset: 4, total: 6, nextCursor: null });
    const macros = await walk('&kind=macro');
    expect(macros.ids).toEqual([...made].reverse());

    const cursorOfAll = (await api.get('/journeys?limit=1')).body.pagination.nextCursor;
    expectErrorEnvelope(await api.get(`/journeys?limit=1&kind=micro&cursor=${encodeURIComponent(cursorOfAll)}`), 400, 'invalid_cursor');
  });

  it("walks a journey's versions newest first and refuses another journey's cursor", async () => {
    const a = await api.post('/journeys', { body: { titleEn: 'Versions A' } });
    const b = await api.post('/journeys', { body: { titleEn: 'Versions B' } });
    const journeyId = a.body.journeyId as string;
    for (let i = 0; i < 3; i++) {
      const res = await api.post(`/journeys/${journeyId}/versions`, { body: { fromVersionId: a.body.version.id, label: `v${i}` } });
      expect(res.status, res.text).toBe(200);
    }
    const byOffset = (await api.get(`/journeys/${journeyId}/versions?limit=100`)).body.versions.map((v: { id: string }) => v.id);
    expect(byOffset).toHaveLength(4);
    const walked: string[] = [];
    let res = await api.get(`/journeys/${journeyId}/versions?limit=3`);
    for (;;) {
      walked.push(...res.body.versions.map((v: { id: string }) => v.id));
      if (!res.body.pagination.hasMore) break;
      res = await api.get(`/journeys/${journeyId}/versions?limit=3&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
    }
    expect(walked).toEqual(byOffset);
    expect(res.body.pagination).toMatchObject({ offset: 3, total: 4, hasMore: false, nextCursor: null });

    const cursorOfA = (await api.get(`/journeys/${journeyId}/versions?limit=1`)).body.pagination.nextCursor;
    expectErrorEnvelope(
      await api.get(`/journeys/${b.body.journeyId}/versions?cursor=${encodeURIComponent(cursorOfA)}`),
      400,
      'invalid_cursor',
    );
  });
});

describe('GET /surveys with a cursor', () => {
  it('walks every listed survey once, leaving the archived out, and refuses a cursor of another status filter', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await newSurvey(api, `Cursor survey ${i}`)).survey.id);
    expect((await api.delete(`/surveys/${made[2]}`)).status).toBe(200);

    const walk = async (query: string) => {
      const ids: string[] = [];
      let res = await api.get(`/surveys?limit=2${query}`);
      for (;;) {
        expect(res.status, res.text).toBe(200);
        ids.push(...res.body.surveys.map((s: { id: string }) => s.id));
        if (!res.body.pagination.hasMore) return { ids, last: res };
        res = await api.get(`/surveys?limit=2${query}&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
      }
    };
    const byOffset = (await api.get('/surveys?limit=100')).body.surveys.map((s: { id: string }) => s.id);
    const all = await walk('');
    expect(all.ids).toEqual(byOffset);
    expect(all.ids).toEqual([made[4], made[3], made[1], made[0]]);
    expect(all.last.body.pagination).toMatchObject({ offset: 2, total: 4, hasMore: false, nextCursor: null });
    expect((await walk('&status=draft')).ids).toEqual(byOffset);

    const cursorOfListed = (await api.get('/surveys?limit=1')).body.pagination.nextCursor;
    expectErrorEnvelope(
      await api.get(`/surveys?limit=1&status=closed&cursor=${encodeURIComponent(cursorOfListed)}`),
      400,
      'invalid_cursor',
    );
  });
});

describe('GET /knowledge-bank lists with a cursor', () => {
  it('walks the articles once, in the offset order, bound to the filters and the key', async () => {
    const kb = await kbWorkspace('cursor-kb');
    const category = await createCategory(kb.writer);
    const other = await createCategory(kb.writer, { nameEn: 'Other' });
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await createArticle(kb.writer, { categoryId: category.id, titleEn: `Article ${i}` })).id);
    await createArticle(kb.writer, { categoryId: other.id, titleEn: 'Elsewhere' });

    const walk = async (path: string) => {
      const ids: string[] = [];
      let res = await kb.writer.get(`${path}limit=2`);
      for (;;) {
        expect(res.status, res.text).toBe(200);
        ids.push(...res.body.articles.map((a: { id: string }) => a.id));
        if (!res.body.pagination.hasMore) return { ids, last: res };
        res = await kb.writer.get(`${path}limit=2&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
      }
    };
    const inCategory = await walk(`/knowledge-bank/articles?categoryId=${category.id}&`);
    expect(inCategory.ids).toEqual([...made].reverse());
    expect(inCategory.last.body.pagination).toMatchObject({ offset: 4, total: 5, nextCursor: null });
    const everything = await walk('/knowledge-bank/articles?');
    expect(everything.ids).toEqual(
      (await kb.writer.get('/knowledge-bank/articles?limit=100')).body.articles.map((a: { id: string }) => a.id),
    );
    expect((await walk('/knowledge-bank/translations?locale=ar&')).ids).toHaveLength(6);

    const cursor = (await kb.writer.get(`/knowledge-bank/articles?limit=1&categoryId=${category.id}`)).body.pagination.nextCursor;
    expectErrorEnvelope(
      await kb.writer.get(`/knowledge-bank/articles?limit=1&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid_cursor',
    );
    expectErrorEnvelope(
      await kb.writer.get(`/knowledge-bank/translations?limit=1&cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid_cursor',
    );
  });

  it("walks an article's revisions newest first and refuses another article's cursor", async () => {
    const kb = await kbWorkspace('cursor-kb-rev');
    const category = await createCategory(kb.writer);
    const article = await createArticle(kb.writer, { categoryId: category.id, titleEn: 'Revised' });
    const sibling = await createArticle(kb.writer, { categoryId: category.id, titleEn: 'Sibling' });
    for (let i = 1; i <= 5; i++) {
      expect((await saveDraft(kb.writer, article.id, { titleEn: `Revised ${i}`, blocks: [para(`Text ${i}`)] })).status).toBe(200);
      await publish(kb.writer, article.id);
    }
    const path = `/knowledge-bank/articles/${article.id}/revisions`;
    const revisions: number[] = [];
    const offsets: number[] = [];
    let res = await kb.writer.get(`${path}?limit=2`);
    for (;;) {
      expect(res.status, res.text).toBe(200);
      offsets.push(res.body.pagination.offset);
      revisions.push(...res.body.revisions.map((r: { revision: number }) => r.revision));
      if (!res.body.pagination.hasMore) break;
      res = await kb.writer.get(`${path}?limit=2&cursor=${encodeURIComponent(res.body.pagination.nextCursor)}`);
    }
    expect(revisions).toEqual([5, 4, 3, 2, 1]);
    expect(offsets).toEqual([0, 2, 4]);
    expect(res.body.pagination).toMatchObject({ total: 5, hasMore: false, nextCursor: null });

    const cursor = (await kb.writer.get(`${path}?limit=1`)).body.pagination.nextCursor;
    expectErrorEnvelope(
      await kb.writer.get(`/knowledge-bank/articles/${sibling.id}/revisions?cursor=${encodeURIComponent(cursor)}`),
      400,
      'invalid_cursor',
    );
  });
});
