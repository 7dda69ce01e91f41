/** The pure rules a draft passes between the store's read and its write (lib/knowledge-bank/draft-content.ts). */
import { describe, expect, it } from 'vitest';
import { draftedArticle, prepareContent, publication, withCheckResults } from '../../lib/knowledge-bank/draft-content.ts';
import type { ArticleWithDigest, StoredLink } from '../../lib/knowledge-bank/record.ts';
import { ApiError } from '../../lib/platform/errors.ts';
import { linkingParagraph, paragraph } from '../support/knowledge-bank-builders.ts';

const header = { titleEn: 'Refunds', titleAr: null, summaryEn: null, summaryAr: null };
const NOW = '2026-01-02T03:04:05.000Z';

function article(overrides: Partial<ArticleWithDigest> = {}): ArticleWithDigest {
  return {
    id: 'a1',
    categoryId: 'c1',
    slug: 'refunds',
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
    createdAt: NOW,
    updatedAt: NOW,
    publishedAt: null,
    ...overrides,
  } as ArticleWithDigest;
}

function refusal(run: () => unknown): { status: number; code: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('knowledge-bank draft content rules', () => {
  it('refuses a draft with a repeated block id (400 duplicate_block_id)', () => {
    const blocks = [paragraph('b1', 'One'), paragraph('b1', 'Two')];
    expect(refusal(() => prepareContent(header, blocks, 'en', undefined))).toEqual({ status: 400, code: 'duplicate_block_id' });
  });

  it('refuses a draft linking to more than 40 distinct articles (400 too_many_links)', () => {
    const links = Array.from({ length: 41 }, (_, i) => ({ articleId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}` }));
    expect(refusal(() => prepareContent(header, [linkingParagraph('b1', links)], 'en', undefined))).toEqual({
      status: 400,
      code: 'too_many_links',
    });
  });

  it('refuses content over 1,048,576 bytes of JSON (413 content_too_large)', () => {
    const blocks = [paragraph('b1', 'x'.repeat(1_048_576))];
    expect(refusal(() => prepareContent(header, blocks, 'en', undefined))).toEqual({ status: 413, code: 'content_too_large' });
  });

  it('prepares the links, internal targets and translation status the store writes', () => {
    const prepared = prepareContent(
      header,
      [linkingParagraph('b1', [{ href: 'https://example.com/a' }, { articleId: '00000000-0000-4000-8000-000000000001' }])],
      'en',
      undefined,
    );
    expect(prepared.links.map((link) => link.kind)).toEqual(['external', 'article']);
    expect(prepared.targets).toEqual([{ kind: 'article', id: '00000000-0000-4000-8000-000000000001' }]);
    expect(prepared.translations).toEqual({ en: 'complete', ar: 'missing' });
    expect(prepared.bytes.byteLength).toBeGreaterThan(0);
  });

  it('publishes revision 1 first, and a draft saved back to what was published has no unpublished changes', () => {
    const prepared = prepareContent(header, [paragraph('b1', 'Refunds take five days')], 'en', undefined);
    const published = publication(article(), prepared.content, NOW);
    expect(published).toMatchObject({ revision: 1, newRevision: true });
    expect(published.next).toMatchObject({
      status: 'published',
      liveRevision: 1,
      latestRevision: 1,
      hasUnpublishedChanges: false,
      version: 2,
    });

    const same = draftedArticle(published.next, prepared, NOW);
    expect(same).toMatchObject({ hasUnpublishedChanges: false, version: 3 });
    const edited = prepareContent(header, [paragraph('b1', 'Refunds take three days')], 'en', prepared.content);
    expect(draftedArticle(published.next, edited, NOW)).toMatchObject({ hasUnpublishedChanges: true, version: 3 });
  });

  it('republishes the latest revision without writing a new one when nothing changed since it', () => {
    const prepared = prepareContent(header, [paragraph('b1', 'Refunds')], 'en', undefined);
    const unpublished = article({ status: 'unpublished', latestRevision: 2, liveRevision: null, hasUnpublishedChanges: false, version: 5 });
    expect(publication(unpublished, prepared.content, NOW)).toMatchObject({ revision: 2, newRevision: false, next: { liveRevision: 2 } });
  });

  it('keeps what the link checker recorded for a link whose id is unchanged, and starts new ones unchecked', () => {
    const prepared = prepareContent(
      header,
      [linkingParagraph('b1', [{ href: 'https://example.com/a' }, { href: 'https://example.com/b' }])],
      'en',
      undefined,
    );
    const [first, second] = prepared.links as [StoredLink, StoredLink];
    const checked: StoredLink = { ...first, status: 'broken', httpStatus: 404, checkedAt: NOW };
    expect(withCheckResults(prepared.links, [checked])).toEqual([
      checked,
      { ...second, status: 'unchecked', httpStatus: null, checkedAt: null },
    ]);
  });
});
