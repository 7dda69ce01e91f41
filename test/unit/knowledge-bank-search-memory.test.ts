/**
 * What a search index costs in memory (index-footprint.ts) and who vacuums it (segments.ts): the
 * counts the index cache bounds itself by follow the index as it is loaded, searched and changed,
 * and the builder always merges (vacuums) before an index following its deltas gathers the dirt a
 * search instance would otherwise vacuum on the request path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PublishedArticle, type SearchDocument, searchDocumentsOf } from '../../lib/knowledge-bank/search/documents.ts';
import { estimatedIndexBytes, footprintOf } from '../../lib/knowledge-bank/search/index-footprint.ts';
import { applyChanges, createIndex, type SearchIndex, searchIndex } from '../../lib/knowledge-bank/search/search-index.ts';
import { decodeBase, encodeBase, isPastVacuumPoint, type Manifest, needsMerge } from '../../lib/knowledge-bank/search/segments.ts';

const WORDS = ['refund', 'invoice', 'password', 'shipping', 'account', 'billing', 'export', 'order', 'plan', 'device', 'team', 'report'];
const ARABIC = ['استرداد', 'فاتورة', 'كلمة', 'شحن', 'حساب', 'فوترة', 'تصدير', 'طلب', 'خطة', 'جهاز', 'فريق', 'تقرير'];

const articleId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Article `n`'s documents: English, and Arabic when `bilingual`, from a few words picked by `n` and `edit`. */
function documentsOf(n: number, edit = 0, bilingual = true): SearchDocument[] {
  const picks = [n, n * 7 + edit, n * 13 + 2 * edit, edit].map((i) => i % WORDS.length);
  const meta: PublishedArticle = {
    id: articleId(n),
    slug: `article-${n}`,
    categoryId: articleId(0),
    visibility: 'public',
    sourceLanguage: 'en',
    tags: [WORDS[picks[0]!]!],
  };
  const english = `${picks.map((i) => WORDS[i]).join(' ')} number${n} edit${edit}`;
  const arabic = picks.map((i) => ARABIC[i]).join(' ');
  return searchDocumentsOf(meta, {
    titleEn: english,
    titleAr: bilingual ? arabic : null,
    summaryEn: english,
    summaryAr: null,
    blocks: [{ id: 'b1', type: 'paragraph', text: { en: [{ text: english }], ...(bilingual ? { ar: [{ text: arabic }] } : {}) } }],
  });
}

const corpus = (articles: number) => Array.from({ length: articles }, (_, n) => documentsOf(n)).flat();
const internals = (index: SearchIndex) => index as unknown as { _index: Iterable<[string, Map<number, Map<number, number>>]> };

/** Every posting of the index, counted the slow way (decoding every term). */
function postingsIn(index: SearchIndex): number {
  let postings = 0;
  for (const [, fields] of internals(index)._index) for (const frequencies of fields.values()) postings += frequencies.size;
  return postings;
}

describe('the estimated heap of an index', () => {
  it('counts a built index’s postings, and a loaded one’s as its terms are decoded, down to the same total', () => {
    const built = createIndex(corpus(60));
    const total = postingsIn(built);
    expect(footprintOf(built)).toMatchObject({ postings: total, undecodedTerms: 0 });

    const loaded = decodeBase(encodeBase(built));
    const lazily = footprintOf(loaded);
    expect(lazily).toMatchObject({ postings: 0, undecodedTerms: loaded.termCount });
    expect(lazily.segmentBytes).toBeGreaterThan(0);
    expect(estimatedIndexBytes(loaded)).toBe(900 * loaded.documentCount + 500 * loaded.termCount + lazily.segmentBytes);

    searchIndex(loaded, { q: 'refund invoice', limit: 10 });
    expect(lazily.postings).toBeGreaterThan(0);
    expect(lazily.undecodedTerms).toBeLessThan(loaded.termCount);

    // Decoding every term: every posting counted once, and the segment's buffer no longer held.
    expect(postingsIn(loaded)).toBe(total);
    expect(lazily).toMatchObject({ postings: total, undecodedTerms: 0 });
    expect(estimatedIndexBytes(loaded)).toBe(estimatedIndexBytes(built));
  });

  it('counts the postings a delta adds as a build of the same documents has them', () => {
    const index = createIndex(corpus(20));
    const before = footprintOf(index).postings;
    const added = [21, 22, 23].map((n) => [articleId(n), documentsOf(n)] as const);
    applyChanges(index, added);
    expect(footprintOf(index).postings - before).toBe(footprintOf(createIndex(added.flatMap(([, documents]) => documents))).postings);
  });
});

describe('vacuums happen in the builder, never on the request path', () => {
  /** A manifest listing deltas that touched these numbers of articles, over a base of `articles`. */
  const manifestOf = (articles: number, deltas: readonly number[]): Manifest => ({
    format: 4,
    version: 1,
    base: { key: 'base', articles, bytes: 1, mergedFrom: null, through: null },
    deltas: deltas.map((touched, n) => ({ key: `delta-${n}`, articles: touched, bytes: 100 })),
  });

  it('merges once the deltas touch 10 % of the base’s articles, and at least 10', () => {
    expect(needsMerge(manifestOf(1000, [50, 49]))).toBe(false);
    expect(needsMerge(manifestOf(1000, [50, 50]))).toBe(true);
    expect(needsMerge(manifestOf(30, [9]))).toBe(false);
    expect(needsMerge(manifestOf(30, [4, 6]))).toBe(true);
  });

  it('has merged by the time an index following its deltas is past the vacuum point, whatever is republished', () => {
    const batch = fc.array(fc.nat(79), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(
        fc.integer({ min: 20, max: 80 }),
        fc.boolean(),
        fc.array(batch, { minLength: 1, maxLength: 10 }),
        (articles, bilingual, batches) => {
          const index = createIndex(Array.from({ length: articles }, (_, n) => documentsOf(n, 0, bilingual)).flat());
          // The builder's manifest counts articles as the stored base does (two documents to an article).
          const baseArticles = Math.ceil(index.documentCount / 2);
          const touched: number[] = [];
          batches.forEach((numbers, edit) => {
            const distinct = [...new Set(numbers.map((n) => n % articles))];
            applyChanges(
              index,
              distinct.map((n) => [articleId(n), documentsOf(n, edit + 1, bilingual)] as const),
            );
            touched.push(distinct.length);
            if (isPastVacuumPoint(index)) expect(needsMerge(manifestOf(baseArticles, touched))).toBe(true);
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
