/**
 * The stored layout of a search index (lib/knowledge-bank/search/index-codec.ts): a loaded index
 * answers exactly as the index it was saved from, including documents discarded and not yet
 * vacuumed, decodes a term's postings only when a query reaches it, and saves again byte for byte.
 */
import { describe, expect, it } from 'vitest';
import type { Block } from '../../lib/knowledge-bank/blocks.ts';
import { type PublishedArticle, searchDocumentsOf } from '../../lib/knowledge-bank/search/documents.ts';
import {
  applyChanges,
  compact,
  createIndex,
  loadIndex,
  type SearchIndex,
  searchIndex,
  serialiseIndex,
} from '../../lib/knowledge-bank/search/search-index.ts';

const WORDS = ['refund', 'invoice', 'password', 'shipping', 'الاسْتِرْدَاد', 'الفَوَاتِير', 'كَلِمَة', 'حِسَاب'];

function article(n: number, words: readonly string[]) {
  const meta: PublishedArticle = {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    slug: `article-${n}`,
    categoryId: '00000000-0000-4000-9000-000000000001',
    visibility: n % 2 ? 'internal' : 'public',
    sourceLanguage: n % 3 ? 'en' : 'ar',
    tags: [words[0]!],
  };
  const text = words.join(' ');
  return searchDocumentsOf(meta, {
    titleEn: `${text} ${n}`,
    titleAr: text,
    summaryEn: text,
    summaryAr: null,
    blocks: [{ id: 'b1', type: 'paragraph', text: { en: [{ text }], ar: [{ text }] } } as Block],
  });
}

const QUERIES = ['refund', 'invoce', 'pass', 'استرداد', 'فواتير', 'حساب كلمه', 'refund shipping', '7'];

const answers = (index: SearchIndex) => QUERIES.map((q) => searchIndex(index, { q, limit: 50 }));

function built(): SearchIndex {
  const index = createIndex(
    Array.from({ length: 12 }, (_, n) => n).flatMap((n) => article(n, [WORDS[n % 8]!, WORDS[(n * 3 + 1) % 8]!, WORDS[(n + 5) % 8]!])),
  );
  // Two articles replaced and one removed, not vacuumed: the saved index holds discarded documents.
  applyChanges(index, [
    [article(1, [])[0]!.articleId, article(1, ['export', 'refund'])],
    [article(2, [])[0]!.articleId, []],
  ]);
  return index;
}

describe('knowledge-bank search index codec', () => {
  it('answers exactly as the index it was saved from, discarded documents included', () => {
    const original = built();
    expect(original.dirtCount).toBeGreaterThan(0);
    const loaded = loadIndex(serialiseIndex(original));
    expect(loaded.documentCount).toBe(original.documentCount);
    expect(loaded.dirtCount).toBe(original.dirtCount);
    expect(loaded.termCount).toBe(original.termCount);
    expect(answers(loaded)).toEqual(answers(original));
  });

  it('vacuums and takes changes as the original does', async () => {
    const original = built();
    const loaded = loadIndex(serialiseIndex(original));
    for (const index of [original, loaded]) {
      applyChanges(index, [[article(3, [])[0]!.articleId, article(3, ['shipping', 'كَلِمَة'])]]);
      await compact(index);
    }
    expect(loaded.dirtCount).toBe(0);
    expect(answers(loaded)).toEqual(answers(original));
  });

  it('saves a loaded index to the same bytes, whether or not its terms were decoded', async () => {
    const saved = serialiseIndex(built());
    expect(serialiseIndex(loadIndex(saved))).toEqual(saved);
    // Queries drop discarded documents' postings as they meet them (MiniSearch does), so this one is vacuumed first.
    const clean = built();
    await compact(clean);
    const savedClean = serialiseIndex(clean);
    const queried = loadIndex(savedClean);
    answers(queried);
    expect(serialiseIndex(queried)).toEqual(savedClean);
  });

  it('decodes the postings of a term only when a query reaches it', () => {
    const loaded = loadIndex(serialiseIndex(built()));
    const internals = loaded as unknown as { _index: Iterable<[string, Map<number, unknown>]> };
    // A fresh Map has no own entries until decoded: count them through Map.prototype, which the lazy map does not override.
    const decoded = () =>
      [...internals._index].filter(([, fields]) => Map.prototype.entries.call(fields).next().done === false).map(([term]) => term);
    expect(decoded()).toEqual([]);
    searchIndex(loaded, { q: 'shipping', limit: 10 });
    expect(decoded().sort()).toEqual(['ship', 'shipping']);
  });
});
