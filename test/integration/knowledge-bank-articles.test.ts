/** Knowledge-bank articles over HTTP: create, read, metadata, draft beside live, publish → edit → restore, delete. */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys } from '../../lib/platform/data/keys.ts';
import { ifMatchRequired } from '../../lib/platform/http/conditional-request.ts';
import { adminStore, expectErrorEnvelope, sandbox } from '../support/fixtures.ts';
import { createArticle, createCategory, type KbWorkspace, kbWorkspace, para, publish, saveDraft } from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let categoryId: string;

beforeAll(async () => {
  ws = await kbWorkspace('kb-art');
  categoryId = (await createCategory(ws.writer, { nameEn: 'Payments' })).id;
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function itemsOf(prefix: string) {
  const { Items = [] } = await adminStore().db.send(
    new QueryCommand({
      TableName: sandbox.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(ws.slug), ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items;
}

describe('POST /knowledge-bank/articles', () => {
  it('creates a draft with every field, block ids, per-block translation status, ETag and Location', async () => {
    const res = await ws.writer.post('/knowledge-bank/articles', {
      body: {
        categoryId,
        titleEn: 'Pay an invoice by card',
        titleAr: 'دفع فاتورة بالبطاقة',
        summaryEn: 'Card payments in three steps',
        tags: ['billing', 'cards'],
        visibility: 'internal',
        blocks: [
          { type: 'heading', level: 2, text: { en: [{ text: 'Steps' }], ar: [{ text: 'الخطوات' }] } },
          para('Open Billing', undefined, 'step-1'),
          { type: 'divider' },
        ],
      },
    });
    expect(res.status).toBe(201);
    const article = res.body.article;
    expect(article).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      categoryId,
      slug: 'pay-an-invoice-by-card',
      sourceLanguage: 'en',
      status: 'draft',
      visibility: 'internal',
      tags: ['billing', 'cards'],
      titleEn: 'Pay an invoice by card',
      titleAr: 'دفع فاتورة بالبطاقة',
      summaryEn: 'Card payments in three steps',
      summaryAr: null,
      liveRevision: null,
      draftRevision: 1,
      hasUnpublishedChanges: true,
      translations: { en: 'complete', ar: 'partial' },
      version: 1,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
      publishedAt: null,
      view: 'draft',
      blocks: [
        {
          id: expect.any(String),
          type: 'heading',
          level: 2,
          text: { en: [{ text: 'Steps' }], ar: [{ text: 'الخطوات' }] },
          translation: 'complete',
        },
        { id: 'step-1', type: 'paragraph', text: { en: [{ text: 'Open Billing' }] }, translation: 'missing' },
        { id: expect.any(String), type: 'divider', translation: 'complete' },
      ],
    });
    expect(res.headers.get('etag')).toBe('"1"');
    expect(res.headers.get('location')).toBe(`/api/v1/knowledge-bank/articles/${article.id}`);
    // Stored: the metadata item, the compressed draft (binary), the claimed slug.
    const [meta] = await itemsOf(`KBART#${article.id}`);
    expect(meta).toMatchObject({ entity: 'KbArticle', status: 'draft', slug: 'pay-an-invoice-by-card' });
    const [draft] = await itemsOf(`KBDOC#${article.id}#DRAFT`);
    expect(draft?.content).toBeInstanceOf(Uint8Array);
    expect(await itemsOf('KBARTSLUG#pay-an-invoice-by-card')).toHaveLength(1);
  });

  it('takes Arabic as the source language when only an Arabic title is given, with an Arabic slug', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: undefined, titleAr: 'استرداد المبالغ' });
    expect(article).toMatchObject({ sourceLanguage: 'ar', slug: 'استرداد-المبالغ', translations: { ar: 'complete', en: 'missing' } });
  });

  it('suffixes a generated slug on a clash, and refuses a given slug that is taken', async () => {
    const first = await createArticle(ws.writer, { categoryId, titleEn: 'Reset a password' });
    const second = await createArticle(ws.writer, { categoryId, titleEn: 'Reset a password' });
    expect([first.slug, second.slug]).toEqual(['reset-a-password', 'reset-a-password-2']);
    const res = await ws.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn: 'x', slug: 'reset-a-password' } });
    expectErrorEnvelope(res, 409, 'slug_taken');
  });

  it('refuses a category that does not exist', async () => {
    const res = await ws.writer.post('/knowledge-bank/articles', {
      body: { categoryId: '00000000-0000-4000-8000-000000000000', titleEn: 'Lost' },
    });
    expectErrorEnvelope(res, 400, 'category_not_found');
    // Nothing of it is left behind: no slug claim, no metadata.
    expect(await itemsOf('KBARTSLUG#lost')).toEqual([]);
    expect((await ws.writer.get('/knowledge-bank/articles')).body.articles.map((a: { slug: string }) => a.slug)).not.toContain('lost');
  });

  it.each([
    ['no category', { categoryId: undefined, titleEn: 'x' }],
    ['an unknown field', { titleEn: 'x', author: 'me' }],
    ['an unknown block type', { titleEn: 'x', blocks: [{ type: 'video' }] }],
    ['a block with an unknown field', { titleEn: 'x', blocks: [{ type: 'divider', size: 2 }] }],
    ['501 blocks', { titleEn: 'x', blocks: Array.from({ length: 501 }, () => ({ type: 'divider' })) }],
    ['21 tags', { titleEn: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }],
    ['a tag over 50 characters', { titleEn: 'x', tags: ['ت'.repeat(51)] }],
    [
      'a javascript: link',
      { titleEn: 'x', blocks: [{ type: 'paragraph', text: { en: [{ text: 'x', link: { href: 'javascript:alert(1)' } }] } }] },
    ],
    ['an http image', { titleEn: 'x', blocks: [{ type: 'image', url: 'http://example.com/a.png' }] }],
  ])('refuses %s with 400 invalid_body', async (_, body) => {
    expectErrorEnvelope(await ws.writer.post('/knowledge-bank/articles', { body: { categoryId, ...body } }), 400, 'invalid_body');
    expect(await itemsOf('KBARTSLUG#x')).toEqual([]);
  });

  it('refuses two blocks with one id', async () => {
    const res = await ws.writer.post('/knowledge-bank/articles', {
      body: {
        categoryId,
        titleEn: 'x',
        blocks: [
          { id: 'a', type: 'divider' },
          { id: 'a', type: 'divider' },
        ],
      },
    });
    expectErrorEnvelope(res, 400, 'duplicate_block_id');
  });

  it('refuses content over 1,048,576 bytes with 413 content_too_large, storing nothing', async () => {
    const big = 'ع'.repeat(15_000); // 30,000 bytes each in UTF-8
    const blocks = Array.from({ length: 36 }, () => para(undefined, big));
    const res = await ws.writer.post('/knowledge-bank/articles', { body: { categoryId, titleEn: 'Too big to store', blocks } });
    expectErrorEnvelope(res, 413, 'content_too_large');
    expect(await itemsOf('KBARTSLUG#too-big-to-store')).toHaveLength(0);
  });

  it('stores a large Arabic draft under the cap compressed', async () => {
    const blocks = Array.from({ length: 300 }, (_, i) => para(`Step ${i}: open the billing page`, `الخطوة ${i}: افتح صفحة الفواتير`));
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'A long guide', blocks });
    expect(article.blocks).toHaveLength(300);
    const [draft] = await itemsOf(`KBDOC#${article.id}#DRAFT`);
    expect(draft).toBeDefined();
    // Each block carries a random UUID, which does not compress; the words do.
    expect((draft as { content: Uint8Array }).content.byteLength).toBeLessThan(Buffer.byteLength(JSON.stringify(article.blocks)) / 3);
  });

  it('replays a create with the same Idempotency-Key', async () => {
    const headers = { 'Idempotency-Key': `article-${Date.now()}` };
    const body = { categoryId, titleEn: 'Idempotent article' };
    const first = await ws.writer.post('/knowledge-bank/articles', { body, headers });
    const again = await ws.writer.post('/knowledge-bank/articles', { body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.article.id).toBe(first.body.article.id);
    expect(await itemsOf('KBARTSLUG#idempotent-article')).toHaveLength(1);
    expectErrorEnvelope(
      await ws.writer.post('/knowledge-bank/articles', { body: { ...body, titleEn: 'Other' }, headers }),
      409,
      'idempotency_key_reused',
    );
  });
});

describe('draft beside live', () => {
  it('publishes, edits the draft while readers keep the live revision, then republishes', async () => {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Refund policy',
      blocks: [para('Refunds within 14 days', undefined, 'b1')],
    });
    expectErrorEnvelope(await ws.reader.get(`/knowledge-bank/articles/${article.id}`), 404, 'not_found');
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/articles/${article.id}?view=live`), 404, 'not_found');

    const live = await publish(ws.writer, article.id);
    expect(live).toMatchObject({
      status: 'published',
      liveRevision: 1,
      draftRevision: 1,
      hasUnpublishedChanges: false,
      publishedAt: expect.stringMatching(ISO_UTC),
    });

    const edited = await saveDraft(
      ws.writer,
      article.id,
      { titleEn: 'Refund policy (2026)', blocks: [para('Refunds within 30 days', undefined, 'b1')] },
      `"${live.version}"`,
    );
    expect(edited.status).toBe(200);
    expect(edited.body.article).toMatchObject({
      status: 'published',
      liveRevision: 1,
      draftRevision: 2,
      hasUnpublishedChanges: true,
      titleEn: 'Refund policy (2026)',
    });

    const readerView = await ws.reader.get(`/knowledge-bank/articles/${article.id}`);
    expect(readerView.body.article).toMatchObject({
      view: 'live',
      titleEn: 'Refund policy',
      blocks: [{ id: 'b1', text: { en: [{ text: 'Refunds within 14 days' }] } }],
    });
    const writerDraft = await ws.writer.get(`/knowledge-bank/articles/${article.id}`);
    expect(writerDraft.body.article).toMatchObject({
      view: 'draft',
      blocks: [{ id: 'b1', text: { en: [{ text: 'Refunds within 30 days' }] } }],
    });
    const writerLive = await ws.writer.get(`/knowledge-bank/articles/${article.id}?view=live`);
    expect(writerLive.body.article.blocks[0].text.en[0].text).toBe('Refunds within 14 days');
    expectErrorEnvelope(await ws.reader.get(`/knowledge-bank/articles/${article.id}?view=draft`), 403, 'missing_permission');

    const republished = await publish(ws.writer, article.id);
    expect(republished).toMatchObject({ liveRevision: 2, draftRevision: 2, hasUnpublishedChanges: false });
    expect((await ws.reader.get(`/knowledge-bank/articles/${article.id}`)).body.article.titleEn).toBe('Refund policy (2026)');
    // Publishing again without changes makes no new revision.
    expect(await publish(ws.writer, article.id)).toMatchObject({ liveRevision: 2 });
    expect((await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions`)).body.pagination.total).toBe(2);
  });

  it('needs If-Match on PUT …/draft and refuses a stale one', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Guarded' });
    const missing = await ws.writer.put(`/knowledge-bank/articles/${article.id}/draft`, { body: { titleEn: 'x' } });
    expectErrorEnvelope(missing, 400, 'if_match_required');
    // The chain's one answer, from the route's declaration, as every route with a required If-Match gives it.
    expect(missing.body.message).toBe(ifMatchRequired().message);
    expectErrorEnvelope(await saveDraft(ws.writer, article.id, { titleEn: 'x' }, '"9"'), 409, 'version_conflict');
    expectErrorEnvelope(await saveDraft(ws.writer, article.id, { titleEn: 'x' }, 'nonsense'), 400, 'invalid_header');
    expect((await saveDraft(ws.writer, article.id, { titleEn: 'x' }, '"1"')).status).toBe(200);
  });

  it('refuses a draft over the size cap with 413, keeping the draft as it was', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Stays small', blocks: [para('small', undefined, 's')] });
    const big = Array.from({ length: 36 }, () => para(undefined, 'ع'.repeat(15_000)));
    expectErrorEnvelope(await saveDraft(ws.writer, article.id, { titleEn: 'Stays small', blocks: big }, '"1"'), 413, 'content_too_large');
    const after = await ws.writer.get(`/knowledge-bank/articles/${article.id}`);
    expect(after.body.article).toMatchObject({ version: 1, blocks: [{ id: 's' }] });
  });

  it('keeps block ids sent back, gives new blocks new ids, and clears what the PUT leaves out', async () => {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Ids',
      summaryEn: 'Goes away',
      blocks: [para('one', undefined, 'keep-me')],
    });
    const res = await saveDraft(ws.writer, article.id, { titleEn: 'Ids', blocks: [para('one'), para('one again', undefined, 'keep-me')] });
    expect(res.body.article.summaryEn).toBeNull();
    const [fresh, kept] = res.body.article.blocks;
    expect(kept.id).toBe('keep-me');
    expect(fresh.id).not.toBe('keep-me');
  });

  it('refuses to publish without a source-language title or text', async () => {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: undefined,
      titleAr: undefined,
      sourceLanguage: 'en',
      blocks: [para(undefined, 'نص فقط')],
    });
    const res = await ws.writer.post(`/knowledge-bank/articles/${article.id}/publish`);
    expectErrorEnvelope(res, 400, 'not_publishable');
    expect(res.body.issues.map((i: { path: string }) => i.path)).toEqual(['draft.titleEn', 'draft.blocks']);
  });

  it('unpublishes: readers get 404, the draft and history stay, and it can go live again', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Temporary', blocks: [para('Soon gone')] });
    await publish(ws.writer, article.id);
    const res = await ws.writer.post(`/knowledge-bank/articles/${article.id}/unpublish`);
    expect(res.status).toBe(200);
    expect(res.body.article).toMatchObject({ status: 'unpublished', liveRevision: null });
    expectErrorEnvelope(await ws.reader.get(`/knowledge-bank/articles/${article.id}`), 404, 'not_found');
    expectErrorEnvelope(await ws.writer.post(`/knowledge-bank/articles/${article.id}/unpublish`), 409, 'not_published');
    expect((await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions`)).body.revisions).toHaveLength(1);
    expect(await publish(ws.writer, article.id)).toMatchObject({ status: 'published', liveRevision: 1 });
    expect((await ws.reader.get(`/knowledge-bank/articles/${article.id}`)).status).toBe(200);
  });
});

describe('revisions and restore', () => {
  it('publish → edit → publish → restore revision 1 into the draft, history untouched', async () => {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Shipping',
      blocks: [para('Ships in 2 days', 'يشحن خلال يومين', 's')],
    });
    await publish(ws.writer, article.id);
    await saveDraft(ws.writer, article.id, { titleEn: 'Shipping times', blocks: [para('Ships in 5 days', 'يشحن خلال يومين', 's')] });
    const second = await publish(ws.writer, article.id);
    expect(second.liveRevision).toBe(2);

    const list = await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions`);
    expect(list.status).toBe(200);
    expect(list.body.revisions.map((r: { revision: number; titleEn: string }) => [r.revision, r.titleEn])).toEqual([
      [2, 'Shipping times'],
      [1, 'Shipping'],
    ]);
    expect(list.body.revisions[0]).toEqual({
      revision: 2,
      publishedAt: expect.stringMatching(ISO_UTC),
      publishedBy: ws.keyId,
      titleEn: 'Shipping times',
      titleAr: null,
      summaryEn: null,
      summaryAr: null,
    });
    expect(list.body.pagination).toEqual({ limit: 25, offset: 0, total: 2, hasMore: false, nextCursor: null });
    const paged = await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions?limit=1&offset=1`);
    expect(paged.body.revisions.map((r: { revision: number }) => r.revision)).toEqual([1]);
    expect(paged.body.pagination).toEqual({ limit: 1, offset: 1, total: 2, hasMore: false, nextCursor: null });
    const far = await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions?offset=2147483647`);
    expect(far.status).toBe(200);
    expect(far.body.revisions).toEqual([]);

    const one = await ws.reader.get(`/knowledge-bank/articles/${article.id}/revisions/1`);
    expect(one.status).toBe(200);
    expect(one.body.revision).toMatchObject({
      revision: 1,
      titleEn: 'Shipping',
      blocks: [{ id: 's', text: { en: [{ text: 'Ships in 2 days' }] }, translation: 'complete' }],
    });
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions/3`), 404, 'not_found');
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions/0`), 400, 'invalid_path');

    const restored = await ws.writer.post(`/knowledge-bank/articles/${article.id}/revisions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body.article).toMatchObject({
      view: 'draft',
      titleEn: 'Shipping',
      liveRevision: 2,
      hasUnpublishedChanges: true,
      draftRevision: 3,
      blocks: [{ id: 's', text: { en: [{ text: 'Ships in 2 days' }] }, translation: 'complete' }],
    });
    // Live is still revision 2 until the restored draft is published, as revision 3.
    expect((await ws.reader.get(`/knowledge-bank/articles/${article.id}`)).body.article.titleEn).toBe('Shipping times');
    expect(await publish(ws.writer, article.id)).toMatchObject({ liveRevision: 3, titleEn: 'Shipping' });
    const history = await ws.writer.get(`/knowledge-bank/articles/${article.id}/revisions`);
    expect(history.body.revisions.map((r: { titleEn: string }) => r.titleEn)).toEqual(['Shipping', 'Shipping times', 'Shipping']);
    expectErrorEnvelope(await ws.writer.post(`/knowledge-bank/articles/${article.id}/revisions/9/restore`), 404, 'not_found');
    const stale = await ws.writer.post(`/knowledge-bank/articles/${article.id}/revisions/1/restore`, { headers: { 'If-Match': '"1"' } });
    expectErrorEnvelope(stale, 409, 'version_conflict');
  });

  it('restoring the live revision leaves no unpublished changes', async () => {
    const article = await createArticle(ws.writer, { categoryId, titleEn: 'Back and forth', blocks: [para('v1')] });
    await publish(ws.writer, article.id);
    await saveDraft(ws.writer, article.id, { titleEn: 'Back and forth', blocks: [para('v2 draft')] });
    const restored = await ws.writer.post(`/knowledge-bank/articles/${article.id}/revisions/1/restore`);
    expect(restored.body.article).toMatchObject({ hasUnpublishedChanges: false, draftRevision: 1 });
  });
});

describe('PATCH /knowledge-bank/articles/{articleId}', () => {
  it('moves an article between categories, keeping both counts right, and changes tags, visibility, slug', async () => {
    const target = await createCategory(ws.writer, { nameEn: 'Target' });
    const article = await createArticle(ws.writer, { categoryId: target.id, titleEn: 'Movable' });
    const elsewhere = await createCategory(ws.writer, { nameEn: 'Elsewhere' });
    const res = await ws.writer.patch(`/knowledge-bank/articles/${article.id}`, {
      body: { categoryId: elsewhere.id, tags: ['moved', 'moved'], visibility: 'internal', slug: 'moved-article' },
      headers: { 'If-Match': '"1"' },
    });
    expect(res.status).toBe(200);
    expect(res.body.article).toMatchObject({
      categoryId: elsewhere.id,
      tags: ['moved'],
      visibility: 'internal',
      slug: 'moved-article',
      version: 2,
    });
    expect(res.headers.get('etag')).toBe('"2"');
    expect((await ws.writer.get(`/knowledge-bank/categories/${target.id}`)).body.category.articleCount).toBe(0);
    expect((await ws.writer.get(`/knowledge-bank/categories/${elsewhere.id}`)).body.category.articleCount).toBe(1);
    expect(await itemsOf('KBARTSLUG#movable')).toHaveLength(0);
    expectErrorEnvelope(
      await ws.writer.patch(`/knowledge-bank/articles/${article.id}`, { body: { tags: [] }, headers: { 'If-Match': '"1"' } }),
      409,
      'version_conflict',
    );
    expectErrorEnvelope(
      await ws.writer.patch(`/knowledge-bank/articles/${article.id}`, { body: { categoryId: '00000000-0000-4000-8000-000000000000' } }),
      400,
      'category_not_found',
    );
    expectErrorEnvelope(
      await ws.writer.patch(`/knowledge-bank/articles/${article.id}`, { body: { titleEn: 'not here' } }),
      400,
      'invalid_body',
    );
    const neighbour = await createArticle(ws.writer, { categoryId, titleEn: 'Neighbour' });
    expectErrorEnvelope(
      await ws.writer.patch(`/knowledge-bank/articles/${neighbour.id}`, { body: { slug: 'moved-article' } }),
      409,
      'slug_taken',
    );
  });
});

describe('GET /knowledge-bank/articles', () => {
  it('filters by category, status, tag and visibility, pages newest first, and shows read-only keys published articles only', async () => {
    const own = await kbWorkspace('kb-list');
    const a = (await createCategory(own.writer, { nameEn: 'A' })).id;
    const b = (await createCategory(own.writer, { nameEn: 'B' })).id;
    const first = await createArticle(own.writer, { categoryId: a, titleEn: 'First', tags: ['x'], blocks: [para('one')] });
    const second = await createArticle(own.writer, { categoryId: b, titleEn: 'Second', visibility: 'internal', blocks: [para('two')] });
    const third = await createArticle(own.writer, { categoryId: a, titleEn: 'Third', tags: ['x', 'y'], blocks: [para('three')] });
    await publish(own.writer, first.id);
    await publish(own.writer, second.id);
    await saveDraft(own.writer, first.id, { titleEn: 'First (draft title)', blocks: [para('one')] });

    const all = await own.writer.get('/knowledge-bank/articles');
    expect(all.body.articles.map((x: { id: string }) => x.id)).toEqual([third.id, second.id, first.id]);
    expect(all.body.pagination).toEqual({ limit: 25, offset: 0, total: 3, hasMore: false, nextCursor: null });
    expect(all.body.articles[2].titleEn).toBe('First (draft title)');
    expect(all.body.articles[0]).not.toHaveProperty('blocks');

    const ids = async (query: string) =>
      (await own.writer.get(`/knowledge-bank/articles?${query}`)).body.articles.map((x: { id: string }) => x.id);
    expect(await ids(`categoryId=${a}`)).toEqual([third.id, first.id]);
    expect(await ids('status=draft')).toEqual([third.id]);
    expect(await ids('tag=x')).toEqual([third.id, first.id]);
    expect(await ids('visibility=internal')).toEqual([second.id]);
    const page = await own.writer.get('/knowledge-bank/articles?limit=1&offset=1');
    expect(page.body.articles.map((x: { id: string }) => x.id)).toEqual([second.id]);
    expect(page.body.pagination).toEqual({ limit: 1, offset: 1, total: 3, hasMore: true, nextCursor: expect.any(String) });
    expect((await own.writer.get('/knowledge-bank/articles?offset=2147483647')).body).toMatchObject({
      articles: [],
      pagination: { total: 3, hasMore: false },
    });

    const readerList = await own.reader.get('/knowledge-bank/articles');
    expect(readerList.body.articles.map((x: { id: string; titleEn: string }) => [x.id, x.titleEn])).toEqual([
      [second.id, 'Second'],
      [first.id, 'First'],
    ]);
    expectErrorEnvelope(await own.writer.get('/knowledge-bank/articles?limit=101'), 400, 'invalid_query');
    expectErrorEnvelope(await own.writer.get('/knowledge-bank/articles?status=archived'), 400, 'invalid_query');
    expectErrorEnvelope(await own.writer.get('/knowledge-bank/articles?sort=title'), 400, 'invalid_query');
  });
});

describe('DELETE /knowledge-bank/articles/{articleId}', () => {
  it('deletes the article with its revisions, content, links and slug, and uncounts it', async () => {
    const category = await createCategory(ws.writer, { nameEn: 'Deletions' });
    const article = await createArticle(ws.writer, { categoryId: category.id, titleEn: 'Doomed', blocks: [para('x')] });
    await publish(ws.writer, article.id);
    await saveDraft(ws.writer, article.id, { titleEn: 'Doomed', blocks: [para('y')] });
    await publish(ws.writer, article.id);
    expectErrorEnvelope(
      await ws.writer.delete(`/knowledge-bank/articles/${article.id}`, { headers: { 'If-Match': '"1"' } }),
      409,
      'version_conflict',
    );
    const res = await ws.writer.delete(`/knowledge-bank/articles/${article.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/articles/${article.id}`), 404, 'not_found');
    expectErrorEnvelope(await ws.writer.delete(`/knowledge-bank/articles/${article.id}`), 404, 'not_found');
    expect(await itemsOf(`KBDOC#${article.id}`)).toEqual([]);
    expect(await itemsOf(`KBLINKS#${article.id}`)).toEqual([]);
    expect(await itemsOf('KBARTSLUG#doomed')).toEqual([]);
    expect((await ws.writer.get(`/knowledge-bank/categories/${category.id}`)).body.category.articleCount).toBe(0);
  });
});
