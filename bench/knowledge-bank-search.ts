/**
 * `npm run bench:search -- [--articles N] [--queries Q] [--publishes P]`: knowledge-bank search,
 * today's design before issue 18 (bench/knowledge-bank-search-baseline.ts: one object with display
 * fields, rewritten by every update) and the shipped one (a lean base segment plus deltas, display
 * from the live content of the page of results) side by side in one run, on a generated bilingual
 * help centre (default 1,000 articles × English and Arabic; the README's figures are 10,000):
 *   1. build, stored size, and the cold load split into S3 GET (fauxqs), decompression, JSON.parse
 *      and MiniSearch's load, with the heap the loaded index takes;
 *   2. warm query p50/p95 over English, Arabic typed without diacritics, one-typo and prefix queries,
 *      titles and snippets included (from stored fields, or decoded from the live content items);
 *   3. the cost of one publish (CPU ms, bytes written) and of a merge, amortised;
 *   4. publish → searchable in the sandbox with the corpus already indexed (this design only);
 *   5. relevance: recall@10 and MRR of the judged queries (knowledge-bank-search-relevance.ts),
 *      without and with Arabic light stemming.
 * Machines are shared: compare ratios within one run, and read the load average printed with them.
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync } from 'node:zlib';
import MiniSearch from 'minisearch';
import { decodeContent, encodeContent } from '../lib/knowledge-bank/content-codec.ts';
import { type LiveContent, type SearchDocument, searchDocumentsOf } from '../lib/knowledge-bank/search/documents.ts';
import { termsOf } from '../lib/knowledge-bank/search/normalise.ts';
import { resultsOf } from '../lib/knowledge-bank/search/results.ts';
import {
  createIndex,
  loadIndex,
  type SearchIndex,
  type SearchQuery,
  searchIndex,
  serialiseIndex,
} from '../lib/knowledge-bank/search/search-index.ts';
import { decodeBase, encodeBase, encodeDelta, MERGE_AFTER_DELTAS, mergedIndex } from '../lib/knowledge-bank/search/segments.ts';
import {
  BASELINE_OPTIONS,
  baselineDocuments,
  compressJson,
  createBaseline,
  loadBaseline,
  searchBaseline,
  unstemmed,
  updateBaseline,
} from './knowledge-bank-search-baseline.ts';
import { generateCorpus, warmQueries } from './knowledge-bank-search-corpus.ts';
import { judgedQueries, relevanceOf } from './knowledge-bank-search-relevance.ts';
import { measureInSandbox } from './knowledge-bank-search-sandbox.ts';

const { values: args } = parseArgs({
  options: {
    articles: { type: 'string', default: '1000' },
    queries: { type: 'string', default: '120' },
    publishes: { type: 'string', default: '10' },
  },
});
const count = Number(args.articles);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};
const median = (values: number[]) => percentile(values, 0.5);
const time = <T>(work: () => T): [T, number] => {
  const started = performance.now();
  const result = work();
  return [result, performance.now() - started];
};
// A heap figure needs a collection first: expose gc without a node flag, so `tsx` runs the bench as is.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1e6;
};

console.log(
  `# Knowledge-bank search: ${count} articles × 2 languages (${cpus().length} CPUs, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at start)\n`,
);

const corpus = generateCorpus(count);
const documents = new Map<string, SearchDocument[]>();
const oldDocuments = new Map<string, ReturnType<typeof baselineDocuments>>();
const liveItems = new Map<string, Uint8Array>();
for (const { meta, content } of corpus) {
  const docs = searchDocumentsOf(meta, content);
  documents.set(meta.id, docs);
  oldDocuments.set(meta.id, baselineDocuments(docs, content, meta.sourceLanguage));
  const encoded = encodeContent(content);
  if (encoded.ok) liveItems.set(meta.id, encoded.bytes);
}

// 1. Build and store.
const [oldBuilt, oldBuildMs] = time(() => createBaseline([...oldDocuments.values()].flat()));
const [newBuilt, newBuildMs] = time(() => createIndex([...documents.values()].flat()));
const oldJson = JSON.stringify(oldBuilt);
const newJson = JSON.stringify(newBuilt);
const oldBody = compressJson(oldJson);
const newBody = encodeBase(newBuilt);

/**
 * Cold load split (median of 3): decompression, JSON.parse, MiniSearch's load, and the first query
 * on the loaded index. The new layout (index-codec.ts) parses only its header, inside the load, and
 * decodes a term's postings when a query first reaches it: the first query pays for its terms.
 */
function coldSplit<T>(body: Uint8Array, parse: (raw: Buffer) => T, load: (parsed: T) => unknown, query: (index: never) => unknown) {
  const split = { decompress: [] as number[], parse: [] as number[], load: [] as number[], firstQuery: [] as number[] };
  for (let i = 0; i < 3; i++) {
    const [raw, decompressMs] = time(() => brotliDecompressSync(body));
    const [parsed, parseMs] = time(() => parse(raw));
    const [index, loadMs] = time(() => load(parsed));
    const [, firstQueryMs] = time(() => query(index as never));
    split.decompress.push(decompressMs);
    split.parse.push(parseMs);
    split.load.push(loadMs);
    split.firstQuery.push(firstQueryMs);
  }
  return {
    decompress: median(split.decompress),
    parse: median(split.parse),
    load: median(split.load),
    firstQuery: median(split.firstQuery),
  };
}
const firstQuery = `${corpus[0]!.titleWordsEn.slice(0, 2).join(' ')}`;
const oldCold = coldSplit(
  oldBody,
  (raw) => JSON.parse(raw.toString('utf8')) as unknown,
  (parsed) => MiniSearch.loadJS(parsed as never, BASELINE_OPTIONS),
  (index) => searchBaseline(index, { q: firstQuery, limit: 10 }),
);
const newCold = coldSplit(
  newBody,
  (raw) => raw,
  (raw) => loadIndex(raw),
  (index) => searchIndex(index, { q: firstQuery, limit: 10 }),
);

// 2. Warm queries.
const queries = warmQueries(corpus);
const searchNew = (index: SearchIndex, query: SearchQuery) => {
  const { hits, total } = searchIndex(index, query);
  // What the BatchGet answers, decoded as the search function decodes it (the round trip itself is not timed).
  const contents = new Map(hits.map((hit) => [hit.articleId, decodeContent<LiveContent>(liveItems.get(hit.articleId)!)]));
  return { results: resultsOf(hits, contents), total };
};
function latencies(run: (q: string) => unknown): number[] {
  for (const q of queries.slice(0, 20)) run(q); // warm the JIT
  return queries.map((q) => time(() => run(q))[1]);
}
// The design on main before this layout: the same lean index in MiniSearch's own JSON form, brotli text.
const jsonBody = compressJson(newJson);
const jsonCold = coldSplit(
  jsonBody,
  (raw) => JSON.parse(raw.toString('utf8')) as unknown,
  (parsed) => MiniSearch.loadJS(parsed as never, { ...BASELINE_OPTIONS, processTerm: termsOf, storeFields: [] }),
  (index) => searchIndex(index, { q: firstQuery, limit: 10 }),
);

// Heap of each index as loaded, and after the warm queries (the new layout decodes postings as queries reach them).
let before = heapMb();
const oldIndex = loadBaseline(oldBody);
const oldHeap = heapMb() - before;
const oldLatencies = latencies((q) => searchBaseline(oldIndex, { q, limit: 10 }));
const oldHeapAfter = heapMb() - before;
before = heapMb();
const newIndex = decodeBase(newBody);
const newHeap = heapMb() - before;
const newLatencies = latencies((q) => searchNew(newIndex, { q, limit: 10 }));
const newHeapAfter = heapMb() - before;

// 3. One publish, and a merge.
const changed = corpus[Math.floor(count / 2)]!.meta.id;
const [, oldUpdateMs, oldUpdateBytes] = await (async () => {
  const started = performance.now();
  const written = await updateBaseline(oldBody, changed, oldDocuments.get(changed)!);
  return [written, performance.now() - started, written.length] as const;
})();
const [delta, newUpdateMs] = time(() => encodeDelta([[changed, documents.get(changed)!]]));
const deltas = corpus.slice(0, MERGE_AFTER_DELTAS).map(({ meta }) => [[meta.id, documents.get(meta.id)!] as const]);
const started = performance.now();
const merged = encodeBase(await mergedIndex(decodeBase(newBody), deltas));
const mergeMs = performance.now() - started;

// 4. Through the sandbox.
const sandbox = await measureInSandbox({ base: newIndex, baselineBody: oldBody, publishes: Number(args.publishes) });
const loadAfterSandbox = loadavg()[0]!;

// 5. Relevance.
const judged = judgedQueries(corpus, Number(args.queries));
const unstemmedIndex = createIndex([...documents.values()].flat(), unstemmed);
const ids = (index: SearchIndex) => (q: string) => searchIndex(index, { q, limit: 10 }).hits.map((hit) => hit.articleId);
const byVariation = (query: { language: string; variation: string }) =>
  `${query.language === 'en' ? 'English' : 'Arabic'}: ${query.variation}`;
const relevanceOld = relevanceOf(judged, ids(unstemmedIndex), byVariation);
const relevanceNew = relevanceOf(judged, ids(newIndex), byVariation);

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(1)} ms`);
const mb = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(2)} MB` : `${(bytes / 1e3).toFixed(1)} KB`);
const ratio = (old: number, now: number) => (now > 0.05 ? `${(old / now).toFixed(1)}×` : '—');
const row = (figure: string, old: number, now: number, format: (n: number) => string) =>
  console.log(`| ${figure} | ${format(old)} | ${format(now)} | ${ratio(old, now)} |`);

const oldS3 = median(sandbox.s3GetMs.baseline);
const newS3 = median(sandbox.s3GetMs.segments);
const oldColdTotal = oldS3 + oldCold.decompress + oldCold.parse + oldCold.load + oldCold.firstQuery;
const newColdTotal = newS3 + newCold.decompress + newCold.parse + newCold.load + newCold.firstQuery;
console.log('| figure | before (one object) | now (lean base + deltas) | before ÷ now |\n|---|---:|---:|---:|');
const jsonColdTotal = newS3 + jsonCold.decompress + jsonCold.parse + jsonCold.load + jsonCold.firstQuery;
row('full build (index only)', oldBuildMs, newBuildMs, ms);
row('index serialised (before: JSON; now: JSON header + postings bytes)', oldJson.length, serialiseIndex(newBuilt).length, mb);
row('stored (brotli q4)', oldBody.length, newBody.length, mb);
row('cold load: S3 GET (fauxqs, median of 3)', oldS3, newS3, ms);
row('cold load: decompress', oldCold.decompress, newCold.decompress, ms);
row('cold load: JSON.parse (now: the header only, inside the load)', oldCold.parse, newCold.parse, ms);
row('cold load: MiniSearch load', oldCold.load, newCold.load, ms);
row('cold load: first query (now: decodes the postings of its terms)', oldCold.firstQuery, newCold.firstQuery, ms);
row('cold load: total, first query answered', oldColdTotal, newColdTotal, ms);
console.log(
  `| cold load, the same lean index in MiniSearch's JSON (main before index format 4): ${mb(jsonBody.length)} stored; decompress / parse / load / first query | ${ms(jsonCold.decompress)} / ${ms(jsonCold.parse)} / ${ms(jsonCold.load)} / ${ms(jsonCold.firstQuery)} | total ${ms(jsonColdTotal)} | ${ratio(jsonColdTotal, newColdTotal)} |`,
);
row('heap of the loaded index', oldHeap, newHeap, (n) => `${n.toFixed(0)} MB`);
row(`heap of the index after the ${queries.length} warm queries`, oldHeapAfter, newHeapAfter, (n) => `${n.toFixed(0)} MB`);
row(`warm query p50 (${queries.length} queries, with titles and snippets)`, median(oldLatencies), median(newLatencies), ms);
row('warm query p95', percentile(oldLatencies, 0.95), percentile(newLatencies, 0.95), ms);
row('one publish: CPU (old: load, patch, save; now: encode a delta)', oldUpdateMs, newUpdateMs, ms);
row('one publish: bytes written', oldUpdateBytes, delta.length, mb);
console.log(
  `| merge of ${MERGE_AFTER_DELTAS} deltas (now, in the builder after they are visible): CPU / bytes | — | ${ms(mergeMs)} / ${mb(merged.length)} | |`,
);
console.log(
  `| one publish, merge amortised: CPU | ${ms(oldUpdateMs)} | ${ms(newUpdateMs + mergeMs / MERGE_AFTER_DELTAS)} | ${ratio(oldUpdateMs, newUpdateMs + mergeMs / MERGE_AFTER_DELTAS)} |`,
);
const p = sandbox.publishToSearchableMs;
// The old builder rewrote the whole index per batch, and each search instance then reloaded it.
const oldEstimate = 1000 + oldUpdateMs + oldColdTotal;
console.log(
  `| publish → searchable in the sandbox, ${p.length} publishes: median / p95 | ≈ ${ms(oldEstimate)} (estimate: 1 s window + update + cold load) | ${ms(median(p))} / ${ms(percentile(p, 0.95))} | ${ratio(oldEstimate, percentile(p, 0.95))} |`,
);
console.log(`| first search through HTTP, index of ${count} articles cold | — | ${ms(sandbox.firstSearchMs)} | |`);
console.log(`\nLoad average after the sandbox part: ${loadAfterSandbox.toFixed(1)}; at the end: ${loadavg()[0]!.toFixed(1)}.`);

console.log(
  `\n## Relevance: ${judged.length} judged queries (${judged.filter((q) => q.language === 'en').length} English, ${judged.filter((q) => q.language === 'ar').length} Arabic)\n`,
);
console.log('| queries | n | recall@10 before | recall@10 now | MRR before | MRR now |\n|---|---:|---:|---:|---:|---:|');
const pct = (n: number) => `${(n * 100).toFixed(0)}%`;
for (const [group, old] of relevanceOld) {
  const now = relevanceNew.get(group)!;
  console.log(
    `| ${group} | ${old.queries} | ${pct(old.recallAt10)} | ${pct(now.recallAt10)} | ${old.mrr.toFixed(3)} | ${now.mrr.toFixed(3)} |`,
  );
}
console.log('\n"before" differs from "now" in relevance only by Arabic light stemming: the query logic and English pipeline are the same.');
