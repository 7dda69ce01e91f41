/**
 * The per-workspace search index: MiniSearch (chosen over Orama by the measurement in
 * bench/knowledge-bank-search-engines.ts, summarised in the README), with our normalisation as its
 * term pipeline. Pure: building, updating, serialising and querying an index do no I/O.
 */
import MiniSearch, { type Options, type Query, type SearchResult } from 'minisearch';
import type { Language } from '../blocks.ts';
import { documentId, type SearchDocument } from './documents.ts';
import { normaliseText, termsOf, tokenize } from './normalise.ts';
import { type Snippet, snippetOf } from './snippets.ts';

/** Title > summary > tags > body. */
export const FIELD_BOOST = { title: 6, summary: 3, tags: 2, body: 1 } as const;
const FIELDS = Object.keys(FIELD_BOOST) as Array<keyof typeof FIELD_BOOST>;
const STORED_FIELDS = ['articleId', 'locale', 'slug', 'categoryId', 'visibility', 'displayTitle', 'excerpt'] as const;
type StoredFields = Pick<SearchDocument, (typeof STORED_FIELDS)[number]>;

/** Typo tolerance starts at this many letters: shorter words have too many one-edit neighbours. */
const FUZZY_MIN_LETTERS = 5;
/** More terms than this are ignored: each one is a pass over the index. */
const MAX_QUERY_TERMS = 12;

/** Bumped whenever the index's shape or term pipeline changes: an older object is rebuilt, not read. */
export const INDEX_FORMAT = 1;

const OPTIONS: Options<SearchDocument> = {
  idField: 'id',
  fields: FIELDS,
  storeFields: [...STORED_FIELDS],
  tokenize,
  processTerm: termsOf,
  // Updates vacuum explicitly before the index is saved, never on a timer inside a Lambda.
  autoVacuum: false,
};

export type SearchIndex = MiniSearch<SearchDocument>;

export function createIndex(documents: Iterable<SearchDocument>): SearchIndex {
  const index = new MiniSearch<SearchDocument>(OPTIONS);
  index.addAll([...documents]);
  return index;
}

/**
 * Puts an article's documents in the index in place of whatever it held for that article, or
 * removes them (documents = []: unpublished or deleted).
 */
export function replaceArticle(index: SearchIndex, articleId: string, documents: readonly SearchDocument[]): void {
  for (const locale of ['en', 'ar'] as const) {
    const id = documentId(articleId, locale);
    if (index.has(id)) index.discard(id);
  }
  index.addAll([...documents]);
}

export async function compact(index: SearchIndex): Promise<void> {
  if (index.dirtCount > 0) await index.vacuum({ batchSize: 10_000, batchWait: 0 });
}

export function articleCount(index: SearchIndex): number {
  return Math.ceil(index.documentCount / 2);
}

export function serialiseIndex(index: SearchIndex): string {
  return JSON.stringify(index);
}

export function loadIndex(json: string): SearchIndex {
  return MiniSearch.loadJSON<SearchDocument>(json, OPTIONS);
}

export interface SearchQuery {
  q: string;
  locale?: Language;
  categoryId?: string;
  visibility?: 'public' | 'internal';
  limit: number;
}

export interface SearchHit {
  articleId: string;
  slug: string;
  title: string;
  categoryId: string;
  score: number;
  snippet: Snippet;
}

interface QueryWord {
  word: string;
  letters: number;
}

/** The words of a query that can match anything (stop words and punctuation dropped). */
function queryWords(q: string): QueryWord[] {
  return tokenize(q)
    .filter((word) => termsOf(word).length > 0)
    .slice(0, MAX_QUERY_TERMS)
    .map((word) => ({ word, letters: [...normaliseText(word)].length }));
}

/**
 * Every word must match (AND); the last one also as a prefix (the reader may still be typing);
 * words of FUZZY_MIN_LETTERS or more letters also within one edit. Each word is its own sub-query,
 * because MiniSearch would otherwise decide fuzziness on the stemmed term rather than on the word
 * the reader typed.
 */
function queryOf(words: readonly QueryWord[]): Query {
  return {
    combineWith: 'AND',
    queries: words.map(({ word, letters }, position) => ({
      // A word may stand for two terms (its stem and itself): either one matching is enough.
      combineWith: 'OR',
      queries: [word],
      prefix: position === words.length - 1,
      fuzzy: letters >= FUZZY_MIN_LETTERS ? 1 : 0,
    })),
  };
}

export function searchIndex(index: SearchIndex, query: SearchQuery): { results: SearchHit[]; total: number } {
  const words = queryWords(query.q);
  if (words.length === 0) return { results: [], total: 0 };
  const matches = index.search(queryOf(words), {
    boost: FIELD_BOOST,
    filter: (result) => {
      const stored = result as unknown as StoredFields;
      return (
        (!query.locale || stored.locale === query.locale) &&
        (!query.categoryId || stored.categoryId === query.categoryId) &&
        (!query.visibility || stored.visibility === query.visibility)
      );
    },
  });
  // Both locales of an article may match: it is listed once, at its better-scoring locale.
  const best = new Map<string, SearchResult>();
  for (const match of matches) {
    const articleId = (match as unknown as StoredFields).articleId;
    if (!best.has(articleId)) best.set(articleId, match);
  }
  const results = [...best.values()].slice(0, query.limit).map((match) => {
    const stored = match as unknown as StoredFields;
    return {
      articleId: stored.articleId,
      slug: stored.slug,
      title: stored.displayTitle,
      categoryId: stored.categoryId,
      score: Math.round(match.score * 1000) / 1000,
      snippet: snippetOf(stored.excerpt, new Set(match.terms)),
    };
  });
  return { results, total: best.size };
}
