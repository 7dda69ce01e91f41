/**
 * `npx tsx bench/knowledge-bank-search-engines.ts [articles]`: the measurement behind the choice of
 * search library. The same generated bilingual corpus (default 5,000 articles × 2 languages) is
 * indexed by MiniSearch with our term pipeline (what ships), by Orama with its default tokenizer,
 * and by Orama with our term pipeline plugged in as its tokenizer. For each: build time, serialised
 * size (JSON and brotli), load time from the serialised form, query p50/p95, and two quality
 * figures: Arabic typed without diacritics (recall@10 of an article by its title words) and English
 * with one typo in one word (recall@10).
 */
import { brotliCompressSync, constants } from 'node:zlib';
import { create, insertMultiple, load, type Orama, save, search } from '@orama/orama';
import { type SearchDocument, searchDocumentsOf } from '../lib/knowledge-bank/search/documents.ts';
import { termsOf, tokenize } from '../lib/knowledge-bank/search/normalise.ts';
import { createIndex, FIELD_BOOST, loadIndex, searchIndex, serialiseIndex } from '../lib/knowledge-bank/search/search-index.ts';
import { asTyped, generateCorpus, withTypo } from './knowledge-bank-search-corpus.ts';

const count = Number(process.argv[2] ?? 5000);
const corpus = generateCorpus(count);
const documents = corpus.flatMap(({ meta, content }) => searchDocumentsOf(meta, content));
const sample = corpus.filter((_, i) => i % Math.max(1, Math.floor(count / 200)) === 0).slice(0, 200);
const arabicQueries = sample.map((a) => ({ id: a.meta.id, q: asTyped(a.titleWordsAr.join(' ')) }));
const typoQueries = sample.map((a) => {
  const words = [...a.titleWordsEn];
  const longest = words.reduce((best, w, i) => (w.length > words[best]!.length ? i : best), 0);
  words[longest] = withTypo(words[longest]!);
  return { id: a.meta.id, q: words.join(' ') };
});

interface Engine {
  name: string;
  build(docs: SearchDocument[]): Promise<unknown>;
  /** Its stored form: JSON for Orama, our segment layout (index-codec.ts) for MiniSearch. */
  serialise(index: unknown): string | Uint8Array;
  load(stored: string | Uint8Array): Promise<unknown>;
  /** Article ids of the top 10. */
  query(index: unknown, q: string): Promise<string[]>;
}

const miniSearch: Engine = {
  name: 'MiniSearch + our pipeline',
  build: async (docs) => createIndex(docs),
  serialise: (index) => serialiseIndex(index as ReturnType<typeof createIndex>),
  load: async (stored) => loadIndex(stored as Uint8Array),
  query: async (index, q) => searchIndex(index as ReturnType<typeof createIndex>, { q, limit: 10 }).hits.map((hit) => hit.articleId),
};

const SCHEMA = {
  articleId: 'string',
  locale: 'enum',
  categoryId: 'enum',
  visibility: 'enum',
  title: 'string',
  summary: 'string',
  tags: 'string',
  body: 'string',
} as const;

function orama(name: string, ourPipeline: boolean): Engine {
  const make = () =>
    create({
      schema: SCHEMA,
      ...(ourPipeline
        ? {
            components: {
              tokenizer: {
                language: 'english',
                normalizationCache: new Map(),
                tokenize: (raw: string) => tokenize(raw).flatMap(termsOf),
              },
            },
          }
        : {}),
    });
  return {
    name,
    build: async (docs) => {
      const db = make();
      await insertMultiple(
        db,
        docs.map(({ id, articleId, locale, categoryId, visibility, title, summary, tags, body }) => ({
          id,
          articleId,
          locale,
          categoryId,
          visibility,
          title,
          summary,
          tags,
          body,
        })),
        1000,
      );
      return db;
    },
    serialise: (db) => JSON.stringify(save(db as Orama<typeof SCHEMA>)),
    load: async (json) => {
      const db = make();
      load(db, JSON.parse(json as string));
      return db;
    },
    query: async (db, q) => {
      // threshold 0: only documents holding every term; tolerance 1: one edit on every term.
      const result = await search(db as Orama<typeof SCHEMA>, {
        term: q,
        properties: ['title', 'summary', 'tags', 'body'],
        boost: FIELD_BOOST,
        tolerance: 1,
        threshold: 0,
        limit: 20,
      });
      const ids: string[] = [];
      for (const hit of result.hits) {
        const articleId = (hit.document as { articleId: string }).articleId;
        if (!ids.includes(articleId)) ids.push(articleId);
      }
      return ids.slice(0, 10);
    },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;

async function measure(engine: Engine) {
  global.gc?.();
  let started = performance.now();
  const built = await engine.build(documents);
  const buildMs = performance.now() - started;
  const json = engine.serialise(built);
  const brotli = brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } });
  started = performance.now();
  const index = await engine.load(json);
  const loadMs = performance.now() - started;
  const timings: number[] = [];
  /** How many of `queries` find the article they were made from; each query's time goes to `timings`. */
  const found = async (queries: readonly { id: string; q: string }[]) => {
    let count = 0;
    for (const { id, q } of queries) {
      const t = performance.now();
      const ids = await engine.query(index, q);
      timings.push(performance.now() - t);
      if (ids.includes(id)) count++;
    }
    return count;
  };
  const arabicFound = await found(arabicQueries);
  const typoFound = await found(typoQueries);
  timings.sort((a, b) => a - b);
  return {
    engine: engine.name,
    buildMs: Math.round(buildMs),
    jsonMB: round(json.length / 1e6),
    brotliMB: round(brotli.length / 1e6),
    loadMs: Math.round(loadMs),
    queryP50Ms: round(percentile(timings, 50)),
    queryP95Ms: round(percentile(timings, 95)),
    arabicRecallAt10: `${Math.round((100 * arabicFound) / arabicQueries.length)}%`,
    typoRecallAt10: `${Math.round((100 * typoFound) / typoQueries.length)}%`,
  };
}

console.log(
  `${count} articles × 2 languages = ${documents.length} documents; ${arabicQueries.length} Arabic and ${typoQueries.length} typo queries`,
);
const rows = [];
for (const engine of [miniSearch, orama('Orama, default tokenizer', false), orama('Orama + our pipeline', true)])
  rows.push(await measure(engine));
console.table(rows);
