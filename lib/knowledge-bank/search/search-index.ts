/**
 * The per-workspace search index: MiniSearch (chosen over Orama by the measurement in
 * bench/knowledge-bank-search-engines.ts, summarised in the README), with our normalisation as its
 * term pipeline. Lean: it stores only what filters and result identity need (no titles, no text);
 * stored, its postings are decoded term by term as queries reach them (index-codec.ts). Pure: no I/O.
 */
import MiniSearch, { type Options, type Query, type SearchOptions } from 'minisearch';
import type { Language } from '../blocks.ts';
import { documentId, type SearchDocument } from './documents.ts';
import { loadCompact, serialiseCompact } from './index-codec.ts';
import { footprintOf } from './index-footprint.ts';
import { termsOf, tokenize } from './normalise.ts';

/** Title > summary > tags > body. */
export const FIELD_BOOST = { title: 6, summary: 3, tags: 2, body: 1 } as const;
const FIELDS = Object.keys(FIELD_BOOST) as Array<keyof typeof FIELD_BOOST>;
const STORED_FIELDS = ['articleId', 'locale', 'slug', 'categoryId', 'visibility', 'sourceLanguage'] as const;
type StoredFields = Pick<SearchDocument, (typeof STORED_FIELDS)[number]>;

/**
 * Typo tolerance starts at this many letters, counted on each term (a word's stem and the word
 * itself are judged apart): shorter terms have too many one-edit neighbours. Judging by the word
 * let a long word's short stem ("الحسابات" → "حساب") match every term one edit from the stem
 * ("حسام"), which ranked those above the exact word (the bench's relevance table) and slowed queries.
 */
const FUZZY_MIN_LETTERS = 5;
/** More terms than this are ignored: each one is a pass over the index. */
const MAX_QUERY_TERMS = 12;

/** Bumped whenever the index's shape or term pipeline changes: an older segment is rebuilt, not read. */
export const INDEX_FORMAT = 4;

export type TermPipeline = (word: string) => string[];

function optionsWith(processTerm: TermPipeline): Options<SearchDocument> {
  return {
    idField: 'id',
    fields: FIELDS,
    storeFields: [...STORED_FIELDS],
    tokenize,
    processTerm,
    // Vacuumed explicitly (compact) by the builder's merge only: never on a timer, never in a search instance.
    autoVacuum: false,
  };
}

const OPTIONS = optionsWith(termsOf);

export type SearchIndex = MiniSearch<SearchDocument>;

/** `pipeline` differs from the shipped one only in the bench, to measure what stemming changes. */
export function createIndex(documents: Iterable<SearchDocument>, pipeline?: TermPipeline): SearchIndex {
  const index = new MiniSearch<SearchDocument>(pipeline ? optionsWith(pipeline) : OPTIONS);
  index.addAll([...documents]);
  // Every posting is in memory: counted once, from each term's fields (no posting is visited).
  let postings = 0;
  for (const [, fields] of (index as unknown as { _index: Iterable<[string, Map<number, Map<number, number>>]> })._index)
    for (const frequencies of fields.values()) postings += frequencies.size;
  footprintOf(index).postings = postings;
  return index;
}

/** The postings `documents` add to an index: one per distinct term of each field, as MiniSearch indexes them. */
function postingsOf(documents: readonly SearchDocument[]): number {
  let postings = 0;
  for (const document of documents)
    for (const field of FIELDS) if (document[field]) postings += new Set(tokenize(document[field]).flatMap(termsOf)).size;
  return postings;
}

/** An article's documents as they are now: none when it is unpublished or deleted. */
export type ArticleDocuments = readonly [articleId: string, documents: readonly SearchDocument[]];

/**
 * Puts each article's documents in the index in place of whatever it held for that article. The
 * replaced documents are discarded, not removed: their postings stay until a vacuum, which only the
 * builder's merge runs (a search instance loads the merged base instead, index-cache.ts).
 */
export function applyChanges(index: SearchIndex, changes: Iterable<ArticleDocuments>): void {
  const footprint = footprintOf(index);
  for (const [articleId, documents] of changes) {
    for (const locale of ['en', 'ar'] as const) {
      const id = documentId(articleId, locale);
      if (index.has(id)) index.discard(id);
    }
    index.addAll([...documents]);
    footprint.postings += postingsOf(documents);
  }
}

/** Drops what discarded documents left in the inverted index (and in term frequencies, so in scores). */
export async function compact(index: SearchIndex): Promise<void> {
  if (index.dirtCount > 0) await index.vacuum({ batchSize: 10_000, batchWait: 0 });
}

export function articleCount(index: SearchIndex): number {
  return Math.ceil(index.documentCount / 2);
}

/** The index as stored in a base segment (index-codec.ts: postings as one array of numbers). */
export function serialiseIndex(index: SearchIndex): Uint8Array {
  return serialiseCompact(index, STORED_FIELDS);
}

export function loadIndex(bytes: Uint8Array, pipeline?: TermPipeline): SearchIndex {
  return loadCompact(bytes, pipeline ? optionsWith(pipeline) : OPTIONS);
}

export interface SearchQuery {
  q: string;
  locale?: Language;
  categoryId?: string;
  visibility?: 'public' | 'internal';
  limit: number;
}

/** A matching article, at the locale it matched best in; what results.ts turns into a result. */
export interface SearchHit extends StoredFields {
  score: number;
  /** The index terms that matched (what snippets highlight). */
  terms: string[];
}

/** The words of a query that can match anything (stop words and punctuation dropped). */
function queryWords(q: string): string[] {
  return tokenize(q)
    .filter((word) => termsOf(word).length > 0)
    .slice(0, MAX_QUERY_TERMS);
}

const fuzzyOf = (term: string) => ([...term].length >= FUZZY_MIN_LETTERS ? 1 : 0);

/**
 * Every word must match (AND); the last one also as a prefix (the reader may still be typing);
 * terms of FUZZY_MIN_LETTERS or more letters also within one edit. Each word is its own sub-query
 * so that its two terms (its stem and itself) are alternatives: either matching is enough, and an
 * article with the exact word matches both, so it ranks above one that shares only the stem.
 */
function queryOf(words: readonly string[]): Query {
  return {
    combineWith: 'AND',
    queries: words.map((word, position) => ({
      combineWith: 'OR',
      queries: [word],
      prefix: position === words.length - 1,
      fuzzy: fuzzyOf,
    })),
  };
}

/** A document's raw match, as MiniSearch's query evaluation answers it before `search` dresses it. */
interface RawMatch {
  score: number;
  /** The query terms it matched. */
  terms: string[];
  /** Document term → fields it matched in. */
  match: Record<string, string[]>;
}

interface QueryInternals {
  executeQuery(query: Query, options: SearchOptions): Map<number, RawMatch>;
  _storedFields: Map<number, StoredFields>;
}

/**
 * The page of best hits (one per article) and how many articles match in all. Scores are what
 * MiniSearch's `search` gives (its score times the number of query terms matched), but a query of
 * common words matches thousands of documents, and `search` builds a result object for each and sorts
 * them all; here each document is only compared with its article's best, and objects are made for the
 * page alone. That evaluation step is MiniSearch's internal `executeQuery` (7.x), as its `search`
 * calls it; the unit tests pin the answers.
 */
export function searchIndex(index: SearchIndex, query: SearchQuery): { hits: SearchHit[]; total: number } {
  const words = queryWords(query.q);
  if (words.length === 0) return { hits: [], total: 0 };
  const engine = index as unknown as QueryInternals;
  const raw = engine.executeQuery(queryOf(words), { boost: FIELD_BOOST });
  // Both locales of an article may match: it is listed once, at its better-scoring locale (the first on a tie).
  const best = new Map<string, { score: number; order: number; stored: StoredFields; match: RawMatch }>();
  let order = 0;
  for (const [docId, match] of raw) {
    order++;
    const stored = engine._storedFields.get(docId);
    if (
      !stored ||
      (query.locale && stored.locale !== query.locale) ||
      (query.categoryId && stored.categoryId !== query.categoryId) ||
      (query.visibility && stored.visibility !== query.visibility)
    )
      continue;
    const score = match.score * (match.terms.length || 1);
    const current = best.get(stored.articleId);
    if (!current || score > current.score) best.set(stored.articleId, { score, order, stored, match });
  }
  const hits = [...best.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, query.limit)
    .map(({ score, stored, match }) => {
      const { articleId, locale, slug, categoryId, visibility, sourceLanguage } = stored;
      return { articleId, locale, slug, categoryId, visibility, sourceLanguage, score, terms: Object.keys(match.match) };
    });
  return { hits, total: best.size };
}
