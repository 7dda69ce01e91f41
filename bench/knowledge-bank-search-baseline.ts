/**
 * Today's design before issue 18, kept for the bench's side-by-side figures only: one MiniSearch
 * object per workspace holding each document's display title and the first 600 characters of its
 * text for snippets, no Arabic stemming, rewritten whole (load, patch, vacuum, serialise, compress)
 * by every update. Not shipped; nothing in lib/ imports it.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import MiniSearch, { type Options } from 'minisearch';
import type { LiveContent, SearchDocument } from '../lib/knowledge-bank/search/documents.ts';
import { termPipeline, tokenize } from '../lib/knowledge-bank/search/normalise.ts';
import { applyChanges, compact, FIELD_BOOST, type SearchQuery, searchIndex } from '../lib/knowledge-bank/search/search-index.ts';
import { snippetOf } from '../lib/knowledge-bank/search/snippets.ts';

const SNIPPET_SOURCE_CHARS = 600;

export interface BaselineDocument extends SearchDocument {
  displayTitle: string;
  excerpt: string;
}

export const unstemmed = termPipeline({ arabicStemming: false });

export const BASELINE_OPTIONS: Options<BaselineDocument> = {
  idField: 'id',
  fields: Object.keys(FIELD_BOOST),
  storeFields: ['articleId', 'locale', 'slug', 'categoryId', 'visibility', 'displayTitle', 'excerpt'],
  tokenize,
  processTerm: unstemmed,
  autoVacuum: false,
};

export type BaselineIndex = MiniSearch<BaselineDocument>;

export function baselineDocuments(
  documents: readonly SearchDocument[],
  content: LiveContent,
  sourceLanguage: 'en' | 'ar',
): BaselineDocument[] {
  const sourceTitle = (sourceLanguage === 'en' ? content.titleEn : content.titleAr) ?? content.titleEn ?? content.titleAr ?? '';
  return documents.map((document) => ({
    ...document,
    displayTitle: document.title || sourceTitle,
    excerpt: [document.summary, document.body].filter(Boolean).join('\n').slice(0, SNIPPET_SOURCE_CHARS),
  }));
}

export function createBaseline(documents: readonly BaselineDocument[]): BaselineIndex {
  const index = new MiniSearch<BaselineDocument>(BASELINE_OPTIONS);
  index.addAll([...documents]);
  return index;
}

export function compressJson(json: string): Buffer {
  return brotliCompressSync(json, {
    params: {
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_SIZE_HINT]: json.length,
    },
  });
}

export function loadBaseline(body: Uint8Array): BaselineIndex {
  return MiniSearch.loadJSON<BaselineDocument>(brotliDecompressSync(body).toString('utf8'), BASELINE_OPTIONS);
}

/** The old search: hits with their title and snippet from what the index stores. */
export function searchBaseline(index: BaselineIndex, query: SearchQuery) {
  // The query logic is today's (search-index.ts); only the stored fields and term pipeline differ.
  const { hits, total } = searchIndex(index as never, query);
  const results = hits.map((hit) => {
    const stored = index.getStoredFields(`${hit.articleId}:${hit.locale}`) as { displayTitle: string; excerpt: string };
    return { articleId: hit.articleId, title: stored.displayTitle, snippet: snippetOf(stored.excerpt, new Set(hit.terms)) };
  });
  return { results, total };
}

/** The old builder's update of one article: the whole object is read, patched and written again. */
export async function updateBaseline(stored: Uint8Array, articleId: string, documents: readonly BaselineDocument[]): Promise<Buffer> {
  const index = loadBaseline(stored);
  applyChanges(index as never, [[articleId, documents]]);
  await compact(index as never);
  return compressJson(JSON.stringify(index));
}
