/**
 * `npm run bench`: what each operation costs, measured in one run so figures compare as ratios.
 *   1. Bundle size of every function (esbuild with the CDK's options), and zod classic vs zod/mini.
 *   2. Module init time of each bundle in a fresh Node process (a proxy for Lambda cold-start init).
 *   3. Against an in-memory sandbox: sandbox start time, then per scenario the DynamoDB calls and
 *      median / p95 latency over repeated requests.
 * Machines are shared and noisy: read medians and ratios, not absolute numbers.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { ideaEventFanOut, webhookDelivery } from '../lib/webhooks/pipeline.ts';
import { reportJourneyWriteUnits } from './journeys.ts';
import { scenarios } from './scenarios.ts';

/** What every function is configured with at cold start (they fail loudly without it). */
const BENCH_FUNCTION_ENV = {
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  WEBHOOK_DELIVERY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-deliveries',
  WEBHOOK_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-dead-letters',
};

const ROOT = resolve(import.meta.dirname, '..');
// Inside the project, so the bundles resolve @aws-sdk/* from node_modules as Lambda resolves it from its runtime.
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(ROOT, 'node_modules/.cache/cx-bench-'));
const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
/** `BENCH_ONLY=sync`: only the full-sync comparison (no bundles, no per-operation scenarios). */
const onlySync = process.env.BENCH_ONLY === 'sync';

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

console.log('## Function bundles (esbuild, minified ESM, @aws-sdk/* external as in Lambda)\n');
console.log('| function | size | gzip | init (ms, median) |\n|---|---:|---:|---:|');
for (const [name, entry] of onlySync
  ? []
  : [
      ...routes.map((r) => [r.operationId, r.handler] as const),
      ['notFound', NOT_FOUND_HANDLER] as const,
      ['webhookFanOut', ideaEventFanOut.handler] as const,
      ['webhookDelivery', webhookDelivery.handler] as const,
    ]) {
  const b = await bundle(entry, name);
  console.log(`| ${name} | ${kb(b.bytes)} | ${kb(b.gzip)} | ${initMs(b.file).toFixed(1)} |`);
}

if (!onlySync) {
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

await (await import('./surveys-engine.ts')).printSurveyEngineTimings();

console.log('\n## Operations against an in-memory sandbox\n');
const { startSandbox } = await import('../local/sandbox.ts');
process.env.POWERTOOLS_LOG_LEVEL = 'SILENT';
const started = performance.now();
const sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-bench' });
console.log(`sandbox start (DynamoDB Local + fauxqs + table + HTTP): ${Math.round(performance.now() - started)} ms\n`);
try {
  console.log(`| scenario | status | DynamoDB calls | median ms | p95 ms |\n|---|---:|---:|---:|---:|`);
  for (const scenario of onlySync ? [] : scenarios) {
    const context = await scenario.setup(sandbox);
    const latencies: number[] = [];
    let calls = 0;
    let status = 0;
    await scenario.request(context); // warm the handler module and the key's rate-limit window
    for (let i = 0; i < iterations; i++) {
      const t = performance.now();
      const res = await scenario.request(context);
      latencies.push(performance.now() - t);
      calls = Number(res.headers.get('x-sandbox-dynamodb-calls'));
      status = res.status;
      await res.arrayBuffer();
    }
    console.log(
      `| ${scenario.name} | ${status} | ${calls} | ${median(latencies).toFixed(1)} | ${percentile(latencies, 0.95).toFixed(1)} |`,
    );
  }
  await reportJourneyWriteUnits(sandbox);
  if (!onlySync) await (await import('./survey-responses.ts')).benchResponseBurst(sandbox);
  // BENCH_SYNC_IDEAS=0 skips it; BENCH_ONLY=sync runs nothing else against the sandbox.
  const syncIdeas = Number(process.env.BENCH_SYNC_IDEAS ?? 10_000);
  if (syncIdeas > 0) {
    // Imported once the sandbox has pointed the handlers' client at DynamoDB Local.
    const { benchFullSync } = await import('./full-sync.ts');
    await benchFullSync(sandbox, syncIdeas);
  }
} finally {
  await sandbox.stop();
}
