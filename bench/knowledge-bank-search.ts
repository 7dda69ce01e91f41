/**
 * `npm run bench:search [articles]`: the figures of knowledge-bank search (README, "Knowledge-bank
 * search"). On a generated bilingual help centre (default 5,000 articles × English and Arabic):
 *   1. index build time, and its size as stored (MiniSearch JSON, brotli as the builder writes it);
 *   2. cold load: what a search function's first query of a workspace pays (decompress + load);
 *   3. warm query p50/p95 over English, Arabic (typed without diacritics), typo and prefix queries;
 *   4. in an in-memory sandbox: publish-to-searchable delay (publish answered → the article found
 *      by GET /search), for single publishes and after a burst of 50.
 * Machines are shared and noisy: read medians and ratios, not absolute numbers.
 */
import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import { createDeveloperKey, MAX_RATE_LIMIT_PER_MINUTE } from '../lib/admin/developer-keys.ts';
import { createWorkspace } from '../lib/admin/workspaces.ts';
import { searchDocumentsOf } from '../lib/knowledge-bank/search/documents.ts';
import { createIndex, loadIndex, searchIndex, serialiseIndex } from '../lib/knowledge-bank/search/search-index.ts';
import { PERMISSIONS } from '../lib/platform/permissions.ts';
import { asTyped, generateCorpus, withTypo } from './knowledge-bank-search-corpus.ts';

const count = Number(process.argv[2] ?? 5000);
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

console.log(
  `# Knowledge-bank search: ${count} articles × 2 languages (load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} CPUs)\n`,
);
const corpus = generateCorpus(count);
const documents = corpus.flatMap(({ meta, content }) => searchDocumentsOf(meta, content));

let started = performance.now();
const built = createIndex(documents);
const buildMs = performance.now() - started;
const json = serialiseIndex(built);
started = performance.now();
const stored = brotliCompressSync(json, {
  params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 },
});
const compressMs = performance.now() - started;

const coldLoads: number[] = [];
let index = built;
for (let i = 0; i < 3; i++) {
  started = performance.now();
  index = loadIndex(brotliDecompressSync(stored).toString('utf8'));
  coldLoads.push(performance.now() - started);
}

const sample = corpus.filter((_, i) => i % Math.max(1, Math.floor(count / 100)) === 0).slice(0, 100);
const queries = sample.flatMap((a) => [
  a.titleWordsEn.slice(0, 2).join(' '),
  asTyped(a.titleWordsAr.slice(0, 2).join(' ')),
  withTypo(a.titleWordsEn.reduce((longest, w) => (w.length > longest.length ? w : longest), '')),
  a.titleWordsEn[0]!.slice(0, 4),
]);
for (const q of queries.slice(0, 20)) searchIndex(index, { q, limit: 10 }); // warm the JIT
const latencies = queries.map((q) => {
  const t = performance.now();
  searchIndex(index, { q, limit: 10 });
  return performance.now() - t;
});

console.log('| figure | value |\n|---|---:|');
console.log(`| documents indexed | ${documents.length} |`);
console.log(`| build time (full) | ${ms(buildMs)} |`);
console.log(`| index JSON | ${(json.length / 1e6).toFixed(1)} MB |`);
console.log(`| stored object (brotli q4) | ${(stored.length / 1e6).toFixed(1)} MB (compressed in ${ms(compressMs)}) |`);
console.log(`| cold load (decompress + load), median of 3 | ${ms(percentile(coldLoads, 0.5))} |`);
console.log(
  `| warm query p50 / p95 (${latencies.length} queries) | ${ms(percentile(latencies, 0.5))} / ${ms(percentile(latencies, 0.95))} |`,
);

console.log('\n## Publish to searchable, in an in-memory sandbox\n');
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const { startSandbox } = await import('../local/sandbox.ts');
const sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-search-bench' });
try {
  const slug = `bench-search-${process.pid}`;
  const ws = await createWorkspace(sandbox.store, slug);
  const { key } = await createDeveloperKey(sandbox.store, {
    workspace: slug,
    permissions: [...PERMISSIONS],
    rateLimitPerMinute: MAX_RATE_LIMIT_PER_MINUTE,
  });
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.apiUrl}${path}`, {
      method,
      headers: {
        'X-Service-Workspace-Host': ws.host,
        Authorization: `Bearer ${key}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as { category?: { id: string }; article?: { id: string }; total?: number };
  };
  const categoryId = (await send('POST', '/knowledge-bank/categories', { nameEn: 'Bench' })).category!.id;
  const createArticle = async (n: number, word: string) =>
    (
      await send('POST', '/knowledge-bank/articles', {
        categoryId,
        titleEn: `Bench article ${n} ${word}`,
        blocks: [{ type: 'paragraph', text: { en: [{ text: `Body of article ${n} about ${word}.` }] } }],
      })
    ).article!.id;
  const searchable = async (word: string, expected: number) => {
    for (;;) {
      const body = await send('GET', `/knowledge-bank/search?q=${word}`);
      if ((body.total ?? 0) >= expected) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  // A first publish creates the workspace's index object; until then the search function indexes
  // from the table itself (README), which would make the delays below look shorter than they are.
  const warmUp = await createArticle(0, 'zqwarmup');
  await send('POST', `/knowledge-bank/articles/${warmUp}/publish`);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  await searchable('zqwarmup', 1);
  const delays: number[] = [];
  for (let i = 0; i < 5; i++) {
    // Random words: two probe words one letter apart would find each other through typo tolerance.
    const word = `q${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    const id = await createArticle(i + 1, word);
    await send('POST', `/knowledge-bank/articles/${id}/publish`);
    const t = performance.now();
    await searchable(word, 1);
    delays.push(performance.now() - t);
  }
  const burst: string[] = [];
  for (let i = 0; i < 50; i++) burst.push(await createArticle(100 + i, 'zqburst'));
  // Published together, as an editor publishing a batch would: they land within one batching window.
  await Promise.all(burst.map((id) => send('POST', `/knowledge-bank/articles/${id}/publish`)));
  const t = performance.now();
  await searchable('zqburst', burst.length);
  const burstDelay = performance.now() - t;
  console.log('| figure | value |\n|---|---:|');
  console.log(`| publish → searchable, single publish (median / max of 5) | ${ms(percentile(delays, 0.5))} / ${ms(Math.max(...delays))} |`);
  console.log(`| 50 publishes at once → all 50 searchable | ${ms(burstDelay)} |`);
} finally {
  await sandbox.stop();
}
