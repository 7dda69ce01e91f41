/**
 * Index segments (lib/knowledge-bank/search/segments.ts): whatever publishes, unpublishes and
 * deletes happen, in whatever batches, with merges wherever they fall, base + deltas answer every
 * query as a fresh build of the final state does; and the manifest arithmetic that racing
 * builders and merges rely on keeps every delta.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PublishedArticle, type SearchDocument, searchDocumentsOf } from '../../lib/knowledge-bank/search/documents.ts';
import { applyChanges, compact, createIndex, type SearchIndex, searchIndex } from '../../lib/knowledge-bank/search/search-index.ts';
import {
  type Delta,
  decodeBase,
  decodeDelta,
  encodeBase,
  encodeDelta,
  type Manifest,
  mergedIndex,
  withDelta,
  withMergedBase,
} from '../../lib/knowledge-bank/search/segments.ts';

const ARTICLES = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
const ENGLISH = ['refund', 'invoice', 'password', 'shipping', 'account', 'billing', 'export'];
const ARABIC = ['الاسْتِرْدَاد', 'فَاتُورَة', 'الفَوَاتِير', 'كَلِمَة', 'الشَّحْن', 'حِسَاب', 'تَصْدِير'];
const QUERIES = [...ENGLISH, 'refunds', 'invoce', 'pass', 'استرداد', 'فواتير', 'فاتوره', 'الحساب', 'refund invoice', 'شحن حساب'];

type Operation = { kind: 'publish'; article: number; words: number[] } | { kind: 'unpublish' | 'delete'; article: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({
    kind: fc.constant('publish' as const),
    article: fc.nat(ARTICLES.length - 1),
    words: fc.array(fc.nat(ENGLISH.length - 1), { minLength: 1, maxLength: 5 }),
  }),
  fc.record({ kind: fc.constantFrom('unpublish' as const, 'delete' as const), article: fc.nat(ARTICLES.length - 1) }),
);

function documentsOf(article: number, words: readonly number[]): SearchDocument[] {
  const meta: PublishedArticle = {
    id: ARTICLES[article]!,
    slug: `article-${article}`,
    categoryId: ARTICLES[0]!,
    visibility: article % 2 ? 'internal' : 'public',
    sourceLanguage: 'en',
    tags: [ENGLISH[words[0]!]!],
  };
  const english = words.map((w) => ENGLISH[w]!).join(' ');
  const arabic = words.map((w) => ARABIC[w]!).join(' ');
  return searchDocumentsOf(meta, {
    titleEn: english,
    titleAr: arabic,
    summaryEn: `${english} ${article}`,
    summaryAr: null,
    blocks: [{ id: 'b1', type: 'paragraph', text: { en: [{ text: english }], ar: [{ text: arabic }] } }],
  });
}

/** What the table holds after some operations: each published article's words. */
function stateAfter(operations: readonly Operation[], from = new Map<number, number[]>()): Map<number, number[]> {
  const state = new Map(from);
  for (const op of operations) {
    if (op.kind === 'publish') state.set(op.article, op.words);
    else state.delete(op.article);
  }
  return state;
}

const freshBuild = (state: ReadonlyMap<number, number[]>) =>
  createIndex([...state].flatMap(([article, words]) => documentsOf(article, words)));

/** A builder's delta for a batch: the touched articles as the table holds them after it. */
function deltaOf(batch: readonly Operation[], state: ReadonlyMap<number, number[]>): Delta {
  const touched = [...new Set(batch.map((op) => op.article))];
  return touched.map((article) => {
    const words = state.get(article);
    return [ARTICLES[article]!, words ? documentsOf(article, words) : []] as const;
  });
}

/** Every query's articles with their scores (rounded: incremental and fresh averages differ in the last bits). */
function answers(index: SearchIndex) {
  return QUERIES.map((q) =>
    searchIndex(index, { q, limit: 50 })
      .hits.map((hit) => `${hit.articleId}:${hit.locale}:${hit.score.toFixed(6)}`)
      .sort(),
  );
}
const matched = (index: SearchIndex) =>
  QUERIES.map((q) =>
    searchIndex(index, { q, limit: 50 })
      .hits.map((hit) => hit.articleId)
      .sort(),
  );

describe('knowledge-bank search segments', () => {
  it('gives the same results through deltas and merges as a fresh build, for any publishes, unpublishes and deletes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { maxLength: 12 }),
        fc.array(fc.array(operation, { minLength: 1, maxLength: 6 }), { maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        async (initial, batches, mergeAfter) => {
          let state = stateAfter(initial);
          // A full build, stored and loaded as a reader loads it.
          let base = decodeBase(encodeBase(freshBuild(state)));
          let pending: Delta[] = [];
          // A reader that applies every delta to the index it holds and never reloads.
          const reader = decodeBase(encodeBase(base));
          for (const [position, batch] of batches.entries()) {
            state = stateAfter(batch, state);
            const delta = decodeDelta(encodeDelta(deltaOf(batch, state)));
            pending.push(delta);
            applyChanges(reader, delta);
            if (mergeAfter[position]) {
              base = decodeBase(encodeBase(await mergedIndex(base, pending)));
              pending = [];
            }
          }
          const merged = await mergedIndex(base, pending);
          const fresh = freshBuild(state);
          expect(answers(merged)).toEqual(answers(fresh));
          // Before vacuuming, discarded documents still count in term frequencies: same articles, close scores.
          expect(matched(reader)).toEqual(matched(fresh));
          await compact(reader);
          expect(answers(reader)).toEqual(answers(fresh));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('knowledge-bank search manifest', () => {
  const base = { key: 'base-1', articles: 10, bytes: 1000, mergedFrom: null, through: null };
  const delta = (n: number) => ({ key: `delta-${n}`, articles: 1, bytes: 100 });
  const manifest: Manifest = { format: 2, version: 3, base, deltas: [delta(1), delta(2)] };

  it('appends a delta with the next version', () => {
    expect(withDelta(manifest, delta(3))).toEqual({ ...manifest, version: 4, deltas: [delta(1), delta(2), delta(3)] });
  });

  it('keeps the deltas appended while a merge ran, after the new base', () => {
    const appended = withDelta(manifest, delta(3));
    const merged = withMergedBase(appended, 'base-1', ['delta-1', 'delta-2'], { key: 'base-2', articles: 11, bytes: 1100 });
    expect(merged).toEqual({
      format: 2,
      version: 5,
      base: { key: 'base-2', articles: 11, bytes: 1100, mergedFrom: 'base-1', through: 'delta-2' },
      deltas: [delta(3)],
    });
  });

  it('voids a merge when the base changed under it (another merge or a full build won)', () => {
    const rebuilt: Manifest = { ...manifest, version: 4, base: { ...base, key: 'base-9' }, deltas: [] };
    expect(withMergedBase(rebuilt, 'base-1', ['delta-1', 'delta-2'], { key: 'base-2', articles: 11, bytes: 1100 })).toBeNull();
  });
});
