/** Knowledge-bank links and backlinks over HTTP: items kept with the content, publish rules, delete guard. */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../support/fixtures.ts';
import {
  createArticle,
  createCategory,
  type KbWorkspace,
  kbWorkspace,
  linkTo,
  para,
  publish,
  saveDraft,
} from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let other: KbWorkspace;
let categoryId: string;

beforeAll(async () => {
  [ws, other] = await Promise.all([kbWorkspace('kb-links'), kbWorkspace('kb-links-other')]);
  categoryId = (await createCategory(ws.writer, { nameEn: 'Linked' })).id;
});

const backlinksOf = async (api: KbWorkspace['writer'], id: string) =>
  (await api.get(`/knowledge-bank/articles/${id}/backlinks`)).body.backlinks;

describe('GET /knowledge-bank/articles/{articleId}/links', () => {
  it('lists internal, record and external links with their block, checking internal targets', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Target', blocks: [para('here')] });
    const source = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Source',
      blocks: [
        {
          id: 'p1',
          type: 'paragraph',
          text: {
            en: [
              { text: 'Read ', link: { articleId: target.id, anchor: 'top' } },
              { text: 'the docs', link: { href: 'https://docs.example.com/start' } },
            ],
            ar: [{ text: 'الفئة', link: { categoryId } }],
          },
        },
        { id: 'p2', type: 'faq', question: { en: [{ text: 'Idea?', link: { record: { kind: 'idea', id: 'IDEA-1' } } }] }, answer: {} },
        linkTo('00000000-0000-4000-8000-000000000000', 'p3'),
      ],
    });
    const res = await ws.writer.get(`/knowledge-bank/articles/${source.id}/links`);
    expect(res.status).toBe(200);
    expect(res.body.links).toEqual([
      {
        id: expect.any(String),
        blockId: 'p1',
        kind: 'article',
        target: target.id,
        anchor: 'top',
        status: 'unpublished',
        httpStatus: null,
        checkedAt: null,
      },
      {
        id: expect.any(String),
        blockId: 'p1',
        kind: 'external',
        target: 'https://docs.example.com/start',
        status: 'unchecked',
        httpStatus: null,
        checkedAt: null,
      },
      { id: expect.any(String), blockId: 'p1', kind: 'category', target: categoryId, status: 'ok', httpStatus: null, checkedAt: null },
      {
        id: expect.any(String),
        blockId: 'p2',
        kind: 'record',
        target: 'idea:IDEA-1',
        status: 'unchecked',
        httpStatus: null,
        checkedAt: null,
      },
      {
        id: expect.any(String),
        blockId: 'p3',
        kind: 'article',
        target: '00000000-0000-4000-8000-000000000000',
        status: 'broken',
        httpStatus: null,
        checkedAt: null,
      },
    ]);
    await publish(ws.writer, target.id);
    const after = await ws.writer.get(`/knowledge-bank/articles/${source.id}/links`);
    expect(after.body.links[0].status).toBe('ok');
    // No live content yet: the live view is a 404, and read-only keys cannot see the draft's links.
    expectErrorEnvelope(await ws.writer.get(`/knowledge-bank/articles/${source.id}/links?view=live`), 404, 'not_found');
    expectErrorEnvelope(await ws.reader.get(`/knowledge-bank/articles/${source.id}/links`), 404, 'not_found');
    expectErrorEnvelope(await ws.reader.get(`/knowledge-bank/articles/${target.id}/links?view=draft`), 403, 'missing_permission');
    expect((await ws.reader.get(`/knowledge-bank/articles/${target.id}/links`)).body.links).toEqual([]);
  });

  it('refuses more than 40 distinct internal link targets with 400 too_many_links', async () => {
    const ids = Array.from({ length: 41 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    const res = await ws.writer.post('/knowledge-bank/articles', {
      body: { categoryId, titleEn: 'Link farm', blocks: ids.map((id) => linkTo(id)) },
    });
    expectErrorEnvelope(res, 400, 'too_many_links');
    const atCap = await ws.writer.post('/knowledge-bank/articles', {
      body: { categoryId, titleEn: 'Link farm', blocks: ids.slice(0, 40).map((id) => linkTo(id)) },
    });
    expect(atCap.status).toBe(201);
  });
});

describe('backlinks', () => {
  it('appear when a draft links and disappear when the link is removed; live ones follow publish', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Popular', blocks: [para('p')] });
    await publish(ws.writer, target.id);
    const source = await createArticle(ws.writer, { categoryId, titleEn: 'Referrer', blocks: [para('no links yet', undefined, 'b')] });
    expect(await backlinksOf(ws.writer, target.id)).toEqual([]);

    await saveDraft(ws.writer, source.id, { titleEn: 'Referrer', blocks: [linkTo(target.id, 'b')] });
    expect(await backlinksOf(ws.writer, target.id)).toEqual([{ articleId: source.id, views: ['draft'] }]);
    expect(await backlinksOf(ws.reader, target.id)).toEqual([]); // drafts are not for read-only keys

    await publish(ws.writer, source.id);
    expect(await backlinksOf(ws.writer, target.id)).toEqual([{ articleId: source.id, views: ['live', 'draft'] }]);
    expect(await backlinksOf(ws.reader, target.id)).toEqual([{ articleId: source.id, views: ['live'] }]);

    await saveDraft(ws.writer, source.id, { titleEn: 'Referrer', blocks: [para('link removed', undefined, 'b')] });
    expect(await backlinksOf(ws.writer, target.id)).toEqual([{ articleId: source.id, views: ['live'] }]);
    await publish(ws.writer, source.id);
    expect(await backlinksOf(ws.writer, target.id)).toEqual([]);
  });

  it('blocks deleting an article a published article links to, unless forced', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Linked to', blocks: [para('t')] });
    await publish(ws.writer, target.id);
    const source = await createArticle(ws.writer, { categoryId, titleEn: 'Links out', blocks: [linkTo(target.id)] });
    // A draft link does not block: only published articles would leave readers with a broken link.
    await publish(ws.writer, source.id);
    const res = await ws.writer.delete(`/knowledge-bank/articles/${target.id}`);
    expectErrorEnvelope(res, 409, 'article_linked');
    expect(res.body.message).toContain(source.id);
    expect(res.body.issues).toEqual([{ path: `backlinks.${source.id}`, message: `published article ${source.id} links here` }]);
    expect((await ws.writer.get(`/knowledge-bank/articles/${target.id}`)).status).toBe(200);

    const forced = await ws.writer.delete(`/knowledge-bank/articles/${target.id}?force=true`);
    expect(forced.status).toBe(200);
    const links = (await ws.writer.get(`/knowledge-bank/articles/${source.id}/links?view=live`)).body.links;
    expect(links[0]).toMatchObject({ kind: 'article', target: target.id, status: 'broken' });
    expectErrorEnvelope(await ws.writer.delete(`/knowledge-bank/articles/${source.id}?force=yes`), 400, 'invalid_query');
  });

  it('drop an unpublished article’s live backlinks, so it no longer blocks deletes', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Was linked', blocks: [para('t')] });
    await publish(ws.writer, target.id);
    const source = await createArticle(ws.writer, { categoryId, titleEn: 'Goes offline', blocks: [linkTo(target.id)] });
    await publish(ws.writer, source.id);
    await ws.writer.post(`/knowledge-bank/articles/${source.id}/unpublish`);
    expect(await backlinksOf(ws.writer, target.id)).toEqual([{ articleId: source.id, views: ['draft'] }]);
    expect((await ws.writer.delete(`/knowledge-bank/articles/${target.id}`)).status).toBe(200);
  });

  it('are never seen across workspaces', async () => {
    const target = await createArticle(ws.writer, { categoryId, titleEn: 'Mine', blocks: [para('m')] });
    await publish(ws.writer, target.id);
    const foreignCategory = await createCategory(other.writer);
    // Another workspace may write our id into a link, but it names nothing there.
    const foreign = await createArticle(other.writer, { categoryId: foreignCategory.id, titleEn: 'Theirs', blocks: [linkTo(target.id)] });
    expect(await backlinksOf(ws.writer, target.id)).toEqual([]);
    expectErrorEnvelope(await other.writer.post(`/knowledge-bank/articles/${foreign.id}/publish`), 400, 'invalid_links');
    expectErrorEnvelope(await other.writer.get(`/knowledge-bank/articles/${target.id}/backlinks`), 404, 'not_found');
  });
});

describe('publish link rules', () => {
  it('refuses a public article linking to internal, unpublished or missing articles, listing each', async () => {
    const internal = await createArticle(ws.writer, { categoryId, titleEn: 'Staff only', visibility: 'internal', blocks: [para('s')] });
    await publish(ws.writer, internal.id);
    const unpublished = await createArticle(ws.writer, { categoryId, titleEn: 'Not yet', blocks: [para('n')] });
    const missing = '00000000-0000-4000-8000-00000000abcd';
    const source = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Public page',
      blocks: [linkTo(internal.id, 'b1'), linkTo(unpublished.id, 'b2'), linkTo(missing, 'b3')],
    });
    const res = await ws.writer.post(`/knowledge-bank/articles/${source.id}/publish`);
    expectErrorEnvelope(res, 400, 'invalid_links');
    expect(res.body.issues).toEqual([
      { path: 'draft.blocks.b1', message: `a public article may not link to internal article ${internal.id}` },
      { path: 'draft.blocks.b2', message: `a public article may not link to unpublished article ${unpublished.id}` },
      { path: 'draft.blocks.b3', message: `links to article ${missing}, which does not exist` },
    ]);
    expect((await ws.writer.get(`/knowledge-bank/articles/${source.id}`)).body.article.status).toBe('draft');

    // An internal article may link to both; only the missing one still stops it.
    await ws.writer.patch(`/knowledge-bank/articles/${source.id}`, { body: { visibility: 'internal' } });
    const internalRes = await ws.writer.post(`/knowledge-bank/articles/${source.id}/publish`);
    expectErrorEnvelope(internalRes, 400, 'invalid_links');
    expect(internalRes.body.issues).toHaveLength(1);
    await saveDraft(ws.writer, source.id, { titleEn: 'Public page', blocks: [linkTo(internal.id, 'b1'), linkTo(unpublished.id, 'b2')] });
    expect((await publish(ws.writer, source.id)).status).toBe('published');
  });
});
