/**
 * `npm run bench`: what each operation costs, measured in one run so figures compare as ratios.
 *   1. Cold start: every function bundled as CDK bundles it and imported as Lambda's init does, with
 *      the AWS SDK from the runtime and bundled, beside a hello world (bench/cold-start.ts); and
 *      zod classic vs zod/mini.
 *   2. DynamoDB latency: with AWS-like latency on every call, p50/p95 of representative operations
 *      before and after issue 31 (the base commit from a temporary worktree), in one run
 *      (bench/latency.ts).
 *   3. Against an in-memory sandbox: sandbox start time, then per scenario the DynamoDB calls, their
 *      sequential depth and median / p95 latency over repeated requests.
 *   4. Similar ideas: recall@3 on the labelled paraphrases beside a plain term match, and p95 at
 *      10,000 ideas (bench/ideas-similar.ts).
 *   5. Tenants: what the workspace budget's check and the usage writes cost (bench/tenants.ts).
 * `BENCH_ONLY=cold-start`, `latency`, `sync`, `similar` or `tenants` runs only that part; `BENCH_SCENARIOS=<text>`
 * runs only the scenarios whose name holds the text (`BENCH_SCENARIOS=/ideas/{id}/` the ideas' votes,
 * comments and merge), and nothing else.
 * Machines are shared and noisy: read medians and ratios, not absolute numbers.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import type { Sandbox } from '../local/sandbox.ts';
import { BENCH_FUNCTION_ENV, reportColdStarts } from './cold-start.ts';
import { reportJourneyWriteUnits } from './journeys.ts';
import { benchLatency } from './latency.ts';
import { scenarios } from './scenarios.ts';
import { reportSurveyAggregation, reportSurveyExport } from './survey-summary.ts';
import { reportTenantCosts } from './tenants.ts';

const ROOT = resolve(import.meta.dirname, '..');
// Inside the project, so the bundles resolve @aws-sdk/* from node_modules as Lambda resolves it from its runtime.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(ROOT, 'node_modules/.cache/cx-bench-'));
const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
const only = process.env.BENCH_ONLY;
/** `BENCH_ONLY=sync`: only the full-sync comparison (no bundles, no per-operation scenarios). */
const onlySync = only === 'sync';
/** `BENCH_ONLY=similar`: only the similar ideas' relevance and latency (bench/ideas-similar.ts). */
const onlySimilar = only === 'similar';
/** `BENCH_ONLY=tenants`: only what the workspace budget and the usage cost (bench/tenants.ts). */
const onlyTenants = only === 'tenants';
const named = process.env.BENCH_SCENARIOS;
const chosen =
  onlySync || onlySimilar || onlyTenants ? [] : scenarios.filter((scenario) => named === undefined || scenario.name.includes(named));

async function bundle(entry: string, name: string, contents?: string): Promise<{ file: string; bytes: number; gzip: number }> {
  const file = join(out, `${name}.mjs`);
  await build({
    ...(contents ? { stdin: { contents, resolveDir: ROOT, loader: 'ts' } } : { entryPoints: [resolve(ROOT, entry)] }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    minify: true,
    outfile: file,
    mainFields: ['module', 'main'],
    external: ['@aws-sdk/*'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  const code = readFileSync(file);
  return { file, bytes: code.length, gzip: gzipSync(code).length };
}

/** Median time for a fresh Node process to import a module, minus an empty module's. */
function initMs(file: string, runs = 7): number {
  const timeOf = (target: string) => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const output = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const t=performance.now(); await import(${JSON.stringify(target)}); console.log(performance.now()-t)`,
        ],
        { env: { ...process.env, ...BENCH_FUNCTION_ENV } },
      );
      samples.push(Number(output.toString().trim().split('\n').at(-1)));
    }
    return median(samples);
  };
  const empty = join(out, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  return timeOf(file) - timeOf(empty);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

if (named === undefined && (only === undefined || only === 'cold-start')) {
  await reportColdStarts(out);
  const schemaMini = `import * as z from 'zod/mini';
  export const s = z.strictObject({ title: z.string().check(z.minLength(1), z.maxLength(160)), description: z.optional(z.string().check(z.maxLength(4000))) });
  console.log(s.safeParse({ title: 'x' }).success);`;
  const schemaClassic = `import { z } from 'zod';
  export const s = z.strictObject({ title: z.string().min(1).max(160), description: z.string().max(4000).optional() });
  console.log(s.safeParse({ title: 'x' }).success);`;
  const mini = await bundle('', 'zod-mini', schemaMini);
  const classic = await bundle('', 'zod-classic', schemaClassic);
  console.log('\n## zod entry points (the same schema)\n');
  console.log(`| entry | size | gzip | init (ms) |\n|---|---:|---:|---:|`);
  console.log(`| zod/mini | ${kb(mini.bytes)} | ${kb(mini.gzip)} | ${initMs(mini.file).toFixed(1)} |`);
  console.log(`| zod (classic) | ${kb(classic.bytes)} | ${kb(classic.gzip)} | ${initMs(classic.file).toFixed(1)} |`);
  console.log(`\nclassic / mini size ratio: ${(classic.bytes / mini.bytes).toFixed(2)}`);
}

if (only === 'cold-start') process.exit(0);
if (named === undefined && (only === undefined || only === 'latency')) await benchLatency();
if (only === 'latency') process.exit(0);

if (!onlySimilar && !onlyTenants && named === undefined) await (await import('./surveys-engine.ts')).printSurveyEngineTimings();

console.log('\n## Operations against an in-memory sandbox\n');
const { startSandbox } = await import('../local/sandbox.ts');
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const started = performance.now();
const sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-bench' });
console.log(`sandbox start (DynamoDB Local + fauxqs + table + HTTP): ${Math.round(performance.now() - started)} ms\n`);
try {
  if (onlyTenants) await reportTenantCosts(sandbox);
  else await benchOperations();
  // Imported once the sandbox has pointed the handlers' client at DynamoDB Local.
  if (!onlySync && !onlyTenants && named === undefined) await (await import('./ideas-similar.ts')).benchSimilarIdeas(sandbox);
} finally {
  await sandbox.stop();
}

async function benchOperations(): Promise<void> {
  console.log(`| scenario | status | DynamoDB calls | depth | median ms | p95 ms |\n|---|---:|---:|---:|---:|---:|`);
  for (const scenario of chosen) {
    const context = await scenario.setup(sandbox);
    const latencies: number[] = [];
    let calls = 0;
    let depth = 0;
    let status = 0;
    await (await scenario.request(context)).arrayBuffer(); // warm the handler module and the key's rate-limit window
    await scenario.reset?.(context);
    for (let i = 0; i < iterations; i++) {
      const t = performance.now();
      const res = await scenario.request(context);
      latencies.push(performance.now() - t);
      calls = Number(res.headers.get('x-sandbox-dynamodb-calls'));
      depth = Number(res.headers.get('x-sandbox-dynamodb-depth'));
      status = res.status;
      await res.arrayBuffer();
      await scenario.reset?.(context);
    }
    console.log(
      `| ${scenario.name} | ${status} | ${calls} | ${depth} | ${median(latencies).toFixed(1)} | ${percentile(latencies, 0.95).toFixed(1)} |`,
    );
  }
  // BENCH_SCENARIOS: the scenarios named and nothing else.
  if (named === undefined && !onlySimilar) await benchBeyondScenarios(sandbox);
}

/** What `npm run bench` measures against the sandbox beyond the per-operation scenarios. */
async function benchBeyondScenarios(sandbox: Sandbox): Promise<void> {
  await reportJourneyWriteUnits(sandbox);
  if (!onlySync) {
    await reportSurveyAggregation(sandbox);
    await reportSurveyExport(sandbox);
  }
  if (!onlySync) await (await import('./survey-responses.ts')).benchResponseBurst(sandbox);
  if (!onlySync) await reportTenantCosts(sandbox);
  // BENCH_SYNC_IDEAS=0 skips it; BENCH_ONLY=sync runs nothing else against the sandbox.
  const syncIdeas = Number(process.env.BENCH_SYNC_IDEAS ?? 10_000);
  if (syncIdeas > 0) {
    // Imported once the sandbox has pointed the handlers' client at DynamoDB Local.
    const { benchFullSync } = await import('./full-sync.ts');
    await benchFullSync(sandbox, syncIdeas);
  }
}
