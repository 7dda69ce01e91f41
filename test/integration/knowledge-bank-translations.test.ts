/** Translation status over HTTP: per-block staleness after an English-only edit, the rollup, and the listing. */
import { beforeAll, describe, expect, it } from 'vitest';
import { expectErrorEnvelope } from '../support/fixtures.ts';
import { createArticle, createCategory, type KbWorkspace, kbWorkspace, para, publish, saveDraft } from '../support/knowledge-bank.ts';

let ws: KbWorkspace;
let categoryId: string;

beforeAll(async () => {
  ws = await kbWorkspace('kb-tr');
  categoryId = (await createCategory(ws.writer, { nameEn: 'Translated' })).id;
});

const statuses = (article: Record<string, any>) =>
  Object.fromEntries((article.blocks as Array<{ id: string; translation: string }>).map((block) => [block.id, block.translation]));

describe('translation status', () => {
  it('marks a block outdated after an English-only edit and complete once the Arabic is rewritten', async () => {
    const titles = { titleEn: 'Change your plan', titleAr: 'تغيير الخطة' };
    const article = await createArticle(ws.writer, {
      categoryId,
      ...titles,
      blocks: [para('Open Billing', 'افتح الفواتير', 'b1'), para('Choose a plan', 'اختر خطة', 'b2')],
    });
    expect(statuses(article)).toEqual({ b1: 'complete', b2: 'complete' });
    expect(article.translations).toEqual({ en: 'complete', ar: 'complete' });

    const edited = await saveDraft(ws.writer, article.id, {
      ...titles,
      blocks: [para('Open Billing settings', 'افتح الفواتير', 'b1'), para('Choose a plan', 'اختر خطة', 'b2')],
    });
    expect(statuses(edited.body.article)).toEqual({ b1: 'outdated', b2: 'complete' });
    expect(edited.body.article.translations).toEqual({ en: 'complete', ar: 'outdated' });

    // Saving again without touching the Arabic keeps it outdated.
    const again = await saveDraft(ws.writer, article.id, {
      ...titles,
      blocks: [para('Open Billing settings', 'افتح الفواتير', 'b1'), para('Choose a plan', 'اختر خطة', 'b2'), para('New step')],
    });
    expect(Object.values(statuses(again.body.article))).toEqual(['outdated', 'complete', 'missing']);

    const translated = await saveDraft(ws.writer, article.id, {
      ...titles,
      blocks: [para('Open Billing settings', 'افتح إعدادات الفواتير', 'b1'), para('Choose a plan', 'اختر خطة', 'b2')],
    });
    expect(statuses(translated.body.article)).toEqual({ b1: 'complete', b2: 'complete' });
    expect(translated.body.article.translations).toEqual({ en: 'complete', ar: 'complete' });
  });

  it('keeps a published revision’s statuses: the live view shows them as they were', async () => {
    const article = await createArticle(ws.writer, {
      categoryId,
      titleEn: 'Live statuses',
      titleAr: 'حالات',
      blocks: [para('One', 'واحد', 'x')],
    });
    await publish(ws.writer, article.id);
    await saveDraft(ws.writer, article.id, { titleEn: 'Live statuses', titleAr: 'حالات', blocks: [para('One, edited', 'واحد', 'x')] });
    const live = await ws.reader.get(`/knowledge-bank/articles/${article.id}`);
    expect(statuses(live.body.article)).toEqual({ x: 'complete' });
    expect(live.body.article.translations).toEqual({ en: 'complete', ar: 'complete' });
    expect(statuses((await ws.writer.get(`/knowledge-bank/articles/${article.id}`)).body.article)).toEqual({ x: 'outdated' });
  });
});

describe('GET /knowledge-bank/translations', () => {
  it('lists drafts by locale and status, newest first, with pagination', async () => {
    const own = await kbWorkspace('kb-tr-list');
    const cat = (await createCategory(own.writer, { nameEn: 'C' })).id;
    const complete = await createArticle(own.writer, {
      categoryId: cat,
      titleEn: 'Complete',
      titleAr: 'مكتمل',
      blocks: [para('a', 'أ', 'a')],
    });
    const partial = await createArticle(own.writer, {
      categoryId: cat,
      titleEn: 'Partial',
      titleAr: 'جزئي',
      blocks: [para('a', 'أ'), para('b')],
    });
    const missing = await createArticle(own.writer, { categoryId: cat, titleEn: 'Missing', blocks: [para('a')] });
    const outdated = await createArticle(own.writer, {
      categoryId: cat,
      titleEn: 'Outdated',
      titleAr: 'قديم',
      blocks: [para('a', 'أ', 'o')],
    });
    await saveDraft(own.writer, outdated.id, { titleEn: 'Outdated', titleAr: 'قديم', blocks: [para('a changed', 'أ', 'o')] });
    const arabicSource = await createArticle(own.writer, {
      categoryId: cat,
      titleEn: undefined,
      titleAr: 'مصدر عربي',
      blocks: [para(undefined, 'نص')],
    });

    const ids = async (query: string) =>
      (await own.writer.get(`/knowledge-bank/translations?${query}`)).body.articles.map((a: { id: string }) => a.id);
    expect(await ids('locale=ar&status=outdated')).toEqual([outdated.id]);
    expect(await ids('locale=ar&status=partial')).toEqual([partial.id]);
    expect(await ids('locale=ar&status=missing')).toEqual([missing.id]);
    expect(await ids('locale=en&status=missing')).toEqual([arabicSource.id]);
    expect(await ids('locale=ar')).toEqual([outdated.id, missing.id, partial.id]);
    expect(await ids('status=missing')).toEqual([arabicSource.id, missing.id]);

    const all = await own.writer.get('/knowledge-bank/translations?limit=2');
    expect(all.status).toBe(200);
    expect(all.body.pagination).toEqual({ limit: 2, offset: 0, total: 5, hasMore: true, nextCursor: expect.any(String) });
    expect(all.body.articles[0]).toEqual({
      id: arabicSource.id,
      slug: 'مصدر-عربي',
      categoryId: cat,
      sourceLanguage: 'ar',
      status: 'draft',
      titleEn: null,
      titleAr: 'مصدر عربي',
      translations: { ar: 'complete', en: 'missing' },
      updatedAt: expect.any(String),
    });
    // Read-only keys see published articles only, with the live revision's titles and statuses.
    expect((await own.reader.get('/knowledge-bank/translations')).body.articles).toEqual([]);
    await publish(own.writer, complete.id);
    await saveDraft(own.writer, complete.id, { titleEn: 'Complete, then edited', titleAr: 'مكتمل', blocks: [para('a edited', 'أ', 'a')] });
    const readerView = (await own.reader.get('/knowledge-bank/translations')).body.articles;
    expect(readerView).toEqual([
      expect.objectContaining({ id: complete.id, titleEn: 'Complete', translations: { en: 'complete', ar: 'complete' } }),
    ]);
    expect((await own.reader.get('/knowledge-bank/translations?locale=ar&status=outdated')).body.articles).toEqual([]);
    expect(await ids('locale=ar&status=outdated')).toContain(complete.id);
    const readerList = (await own.reader.get('/knowledge-bank/articles')).body.articles;
    expect(readerList).toEqual([expect.objectContaining({ titleEn: 'Complete', translations: { en: 'complete', ar: 'complete' } })]);
    expectErrorEnvelope(await own.writer.get('/knowledge-bank/translations?locale=fr'), 400, 'invalid_query');
    expectErrorEnvelope(await own.writer.get('/knowledge-bank/translations?status=complete'), 400, 'invalid_query');
  });
});
