/**
 * `npm run bench:search-memory -- [--articles 1000,5000,10000] [--workspaces 8] [--cache-articles 5000]`:
 * the heap a search index takes, measured against what the index cache estimates
 * (lib/knowledge-bank/search/index-footprint.ts), and the heap of a search instance that serves
 * several large workspaces in turn, with the cache bounded by count (8 indexes, before issue 27) and
 * by bytes (half of the functions' 512 MB).
 *
 *   1. For each size (articles × English and Arabic, the generated help centre of the search bench):
 *      the index as a search instance loads it (lazily, index-codec.ts), after 400 queries, and with
 *      every term decoded (the most a long-lived instance can hold). "Measured" is heap plus array
 *      buffers after two forced collections, before and after; "estimated" is estimatedIndexBytes.
 *   2. A search instance serving `--workspaces` workspaces of `--cache-articles` articles, each fully
 *      decoded, one after another: the heap after each, with each eviction rule.
 *
 * Each measurement runs in a process of its own (this script, with `--one`), so nothing another left
 * behind is counted. Memory is not CPU: the figures hold on a loaded machine.
 */
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { searchDocumentsOf } from '../lib/knowledge-bank/search/documents.ts';
import { estimatedIndexBytes, leastRecentlyUsedPastBudget } from '../lib/knowledge-bank/search/index-footprint.ts';
import { createIndex, type SearchIndex, searchIndex } from '../lib/knowledge-bank/search/search-index.ts';
import { decodeBase, encodeBase } from '../lib/knowledge-bank/search/segments.ts';
import { generateCorpus, warmQueries } from './knowledge-bank-search-corpus.ts';

const { values: args } = parseArgs({
  options: {
    articles: { type: 'string', default: '1000,5000,10000' },
    workspaces: { type: 'string', default: '8' },
    'cache-articles': { type: 'string', default: '5000' },
    /** Internal: measure one size (`index:<articles>`) or one eviction rule (`cache:count` | `cache:bytes`) and print it. */
    one: { type: 'string' },
  },
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Heap plus array buffers (a loaded index keeps its decompressed segment in one), after collecting twice. */
const heap = () => {
  gc();
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
};
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`;
const share = (estimated: number, measured: number) =>
  `${estimated >= measured ? '+' : ''}${((estimated / measured - 1) * 100).toFixed(0)} %`;

/** The stored base of a help centre of `articles` articles, and 400 queries of its words; the documents are dropped. */
function stored(articles: number): { body: Uint8Array; queries: string[] } {
  const corpus = generateCorpus(articles);
  const body = encodeBase(createIndex(corpus.flatMap(({ meta, content }) => searchDocumentsOf(meta, content))));
  return { body, queries: warmQueries(corpus) };
}

/** Every term decoded, as a long-lived instance may end up. */
function decodeAll(index: SearchIndex): void {
  for (const [, fields] of (index as unknown as { _index: Iterable<[string, Map<number, unknown>]> })._index) fields.size;
}

const cell = ([measured, estimated]: readonly [number, number]) => `${mb(measured)} / ${mb(estimated)} (${share(estimated, measured)})`;

/** One index: measured against estimated, loaded, searched and fully decoded. */
function measureIndex(articles: number): string {
  const { body, queries } = stored(articles);
  const before = heap();
  const index = decodeBase(body);
  const loaded = [heap() - before, estimatedIndexBytes(index)] as const;
  for (const q of queries) searchIndex(index, { q, limit: 10 });
  const searched = [heap() - before, estimatedIndexBytes(index)] as const;
  decodeAll(index);
  const decoded = [heap() - before, estimatedIndexBytes(index)] as const;
  return `| ${articles.toLocaleString('en')} | ${index.documentCount.toLocaleString('en')} / ${index.termCount.toLocaleString('en')} | ${cell(loaded)} | ${cell(searched)} | ${cell(decoded)} |`;
}

const workspaces = Number(args.workspaces);
const cacheArticles = Number(args['cache-articles']);
const budget = (512 * 1024 * 1024) / 2;

/**
 * A search instance serving `workspaces` large workspaces in turn, each fully decoded, with one
 * eviction rule: a Map in least-recently-used order, as index-cache.ts keeps it.
 */
function measureCache(rule: 'count' | 'bytes'): string {
  const { body } = stored(cacheArticles);
  const cache = new Map<string, SearchIndex>();
  /** One search of a new workspace: load, decode every term, keep, evict (in a function of its own, so nothing else holds the index). */
  const serve = (workspace: string) => {
    const index = decodeBase(body);
    decodeAll(index);
    cache.set(workspace, index);
    const dropped =
      rule === 'count'
        ? [...cache.keys()].slice(0, Math.max(0, cache.size - 8))
        : leastRecentlyUsedPastBudget(
            [...cache].map(([key, cached]) => [key, estimatedIndexBytes(cached)] as const),
            budget,
          );
    for (const key of dropped) cache.delete(key);
  };
  const baseline = heap();
  const after: string[] = [];
  for (let n = 1; n <= workspaces; n++) {
    serve(`ws${n}`);
    after.push(`${mb(heap() - baseline)} (${cache.size} kept)`);
  }
  return `- bounded by ${rule === 'count' ? 'count (8 indexes, before)' : `bytes (${mib(budget)}, now)`}: ${after.join(', ')}`;
}

/** Runs `--one what` in a process of its own and answers what it printed. */
function inOwnProcess(what: string): string {
  const run = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, '--one', what, ...process.argv.slice(2)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (run.status !== 0) throw new Error(`${what} failed: ${run.stderr}`);
  return run.stdout.trim();
}

if (args.one) {
  const [kind, value] = args.one.split(':') as [string, string];
  console.log(kind === 'index' ? measureIndex(Number(value)) : measureCache(value as 'count' | 'bytes'));
} else {
  console.log(
    `# Knowledge-bank search memory (${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})\n`,
  );
  console.log('| articles × 2 | documents / terms | loaded: measured / estimated | after 400 queries | every term decoded |');
  console.log('| ---: | ---: | ---: | ---: | ---: |');
  for (const articles of args.articles.split(',').map(Number)) console.log(inOwnProcess(`index:${articles}`));
  console.log(
    `\n${workspaces} workspaces of ${cacheArticles.toLocaleString('en')} articles × 2, each fully decoded in turn; heap after each (budget ${mib(budget)} = ${mb(budget)}):\n`,
  );
  for (const rule of ['count', 'bytes']) console.log(inOwnProcess(`cache:${rule}`));
}
