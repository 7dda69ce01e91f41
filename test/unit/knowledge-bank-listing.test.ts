/** List filters and pages, link statuses and backlink grouping: the rules the list handlers apply. */
import { describe, expect, it } from 'vitest';
import { matchesArticleFilter, matchesTranslationFilter, newestFirst, pageOf } from '../../lib/knowledge-bank/listing.ts';
import type { LinkTargetState } from '../../lib/knowledge-bank/publish.ts';
import { type ArticleItem, backlinkRecords, linkRecords, type StoredLink } from '../../lib/knowledge-bank/record.ts';
import { pageOfSorted } from '../../lib/platform/pagination.ts';

function article(overrides: Partial<ArticleItem>): ArticleItem {
  const header = { titleEn: 'T', titleAr: null, summaryEn: null, summaryAr: null };
  return {
    id: 'a',
    categoryId: 'c1',
    slug: 's',
    sourceLanguage: 'en',
    status: 'draft',
    visibility: 'public',
    tags: [],
    draft: header,
    live: null,
    latestRevision: 0,
    liveRevision: null,
    hasUnpublishedChanges: true,
    translations: { en: 'complete', ar: 'missing' },
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    publishedAt: null,
    ...overrides,
  };
}

describe('knowledge-bank listing', () => {
  it('pages with a total and hasMore, and an empty page past the end', () => {
    const items = [1, 2, 3, 4, 5].map((n) => ({ id: `a${n}`, createdAt: `2026-01-0${6 - n}T00:00:00.000Z` }));
    const ids = (page: { items: { id: string }[] }) => page.items.map((item) => item.id);
    const page = pageOf(items, { limit: 2, offset: 2, after: undefined });
    expect(ids(page)).toEqual(['a3', 'a4']);
    expect(page).toMatchObject({ total: 5, hasMore: true, returned: 2, lastKey: { id: 'a4', createdAt: items[3]?.createdAt } });
    expect(pageOf(items, { limit: 2, offset: 4, after: undefined }).hasMore).toBe(false);
    expect(pageOf(items, { limit: 25, offset: 2_147_483_647, after: undefined })).toEqual({
      items: [],
      total: 5,
      hasMore: false,
      lastKey: undefined,
      returned: 0,
    });
  });

  it("continues after a cursor's item by its place in the order, even when that item is gone", () => {
    const items = [1, 2, 3, 4, 5].map((n) => ({ id: `a${n}`, createdAt: `2026-01-0${6 - n}T00:00:00.000Z` }));
    const first = pageOf(items, { limit: 2, offset: 0, after: undefined });
    const withoutA2 = items.filter((item) => item.id !== 'a2');
    const next = pageOf(withoutA2, { limit: 2, offset: 2, after: first.lastKey });
    expect(next.items.map((item) => item.id)).toEqual(['a3', 'a4']);
    expect(pageOf(items, { limit: 2, offset: 4, after: { id: 'a5', createdAt: items[4]?.createdAt ?? '' } }).items).toEqual([]);
  });

  it('pages any sorted list by its own key: external links resume after a URL gone since', () => {
    const links = ['https://a.example', 'https://b.example', 'https://c.example', 'https://d.example'].map((url) => ({ url }));
    const byUrl = {
      keyOf: (link: { url: string }) => ({ url: link.url }),
      follows: (link: { url: string }, place: { url?: unknown }) => link.url > String(place.url),
    };
    const first = pageOfSorted(links, { limit: 2, offset: 0, after: undefined }, byUrl);
    expect(first).toMatchObject({ total: 4, hasMore: true, returned: 2, lastKey: { url: 'https://b.example' } });
    const withoutB = links.filter((link) => link.url !== 'https://b.example');
    const next = pageOfSorted(withoutB, { limit: 2, offset: 2, after: first.lastKey }, byUrl);
    expect(next.items.map((link) => link.url)).toEqual(['https://c.example', 'https://d.example']);
    expect(pageOfSorted(links, { limit: 2, offset: 0, after: { url: 'https://z.example' } }, byUrl).items).toEqual([]);
  });

  it('orders newest first, the id breaking ties', () => {
    const older = article({ id: 'b', createdAt: '2026-01-01T00:00:00.000Z' });
    const newer = article({ id: 'a', createdAt: '2026-02-01T00:00:00.000Z' });
    const twin = article({ id: 'c', createdAt: '2026-02-01T00:00:00.000Z' });
    expect([older, newer, twin].sort(newestFirst).map((a) => a.id)).toEqual(['c', 'a', 'b']);
  });

  it('filters articles, hiding unpublished ones from read-only keys', () => {
    const published = article({ status: 'published', tags: ['billing'], visibility: 'internal' });
    expect(matchesArticleFilter(published, { liveOnly: true })).toBe(true);
    expect(matchesArticleFilter(article({ status: 'unpublished' }), { liveOnly: true })).toBe(false);
    expect(matchesArticleFilter(published, { liveOnly: false, tag: 'billing', visibility: 'internal', categoryId: 'c1' })).toBe(true);
    expect(matchesArticleFilter(published, { liveOnly: false, tag: 'bill' })).toBe(false);
    expect(matchesArticleFilter(published, { liveOnly: false, categoryId: 'c2' })).toBe(false);
    expect(matchesArticleFilter(published, { liveOnly: false, status: 'draft' })).toBe(false);
  });

  it('matches translation statuses by locale, by status, or both', () => {
    const item = { en: 'complete', ar: 'outdated' } as const;
    expect(matchesTranslationFilter(item, { locale: 'ar', status: 'outdated' })).toBe(true);
    expect(matchesTranslationFilter(item, { locale: 'en', status: 'outdated' })).toBe(false);
    expect(matchesTranslationFilter(item, { status: 'outdated' })).toBe(true);
    expect(matchesTranslationFilter(item, { locale: 'ar' })).toBe(true);
    expect(matchesTranslationFilter(item, { locale: 'en' })).toBe(false);
    expect(matchesTranslationFilter(item, {})).toBe(true);
  });
});

describe('knowledge-bank link records', () => {
  const links: StoredLink[] = [
    { id: '1', blockId: 'b', kind: 'article', target: 'live' },
    { id: '2', blockId: 'b', kind: 'article', target: 'draft-only' },
    { id: '3', blockId: 'b', kind: 'category', target: 'gone' },
    {
      id: '4',
      blockId: 'b',
      kind: 'external',
      target: 'https://x.example',
      status: 'broken',
      httpStatus: 404,
      checkedAt: '2026-01-01T00:00:00.000Z',
    },
    { id: '5', blockId: 'b', kind: 'article', target: 'a-category' },
  ];
  const targets = new Map<string, LinkTargetState>([
    ['live', { kind: 'article', visibility: 'public', published: true }],
    ['draft-only', { kind: 'article', visibility: 'public', published: false }],
    ['a-category', { kind: 'category', visibility: 'public', published: true }],
  ]);

  it('gives internal links their status from the targets and keeps what the checker recorded on external ones', () => {
    expect(linkRecords(links, targets).map((link) => [link.id, link.status, link.httpStatus])).toEqual([
      ['1', 'ok', null],
      ['2', 'unpublished', null],
      ['3', 'broken', null],
      ['4', 'broken', 404],
      ['5', 'broken', null],
    ]);
  });

  it('groups backlinks by article, live before draft, and hides draft ones from read-only keys', () => {
    const items = [
      { sourceId: 'x', view: 'DRAFT' as const },
      { sourceId: 'x', view: 'LIVE' as const },
      { sourceId: 'y', view: 'DRAFT' as const },
    ];
    expect(backlinkRecords(items, { includeDrafts: true })).toEqual([
      { articleId: 'x', views: ['live', 'draft'] },
      { articleId: 'y', views: ['draft'] },
    ]);
    expect(backlinkRecords(items, { includeDrafts: false })).toEqual([{ articleId: 'x', views: ['live'] }]);
  });
});
