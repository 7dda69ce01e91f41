/**
 * Cold start, measured as Lambda starts a function: each function is bundled as the CDK stack bundles
 * it (cdk/bundling.ts: esbuild, ESM, minified, a source map, Node 24) and imported in a fresh Node
 * process with the source maps on (`NODE_OPTIONS=--enable-source-maps`, as every function has),
 * which is what Lambda's init phase does before the first request. Two ways of shipping the AWS SDK:
 *   - runtime SDK: `@aws-sdk/*` left out of the bundle and resolved, as Lambda's Node.js runtime
 *     provides it, from an installed copy (this repository's node_modules: the same packages, each
 *     package's whole CommonJS build loaded as it is);
 *   - SDK bundled: everything in one minified file (CDK's `bundleAwsSDK: true`), the SDK's ESM build
 *     tree-shaken to the commands the function sends.
 * Each figure is the median, over fresh processes, of the CPU milliseconds from the process's start
 * to the end of the handler's import (initOnce says why CPU): Node's own start included, so a
 * hello-world bundle measured in the same run is the floor and the column beside it is what the
 * function adds.
 * The runs alternate between the two ways, so a change of the machine's load touches both alike.
 */
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { HOUSE_BUNDLING, HOUSE_NODE_OPTIONS } from '../cdk/bundling.ts';
import { NOT_FOUND_HANDLER, routes } from '../lib/manifest.ts';
import { ideaAndResponseChanges, webhookDelivery } from '../lib/webhooks/pipeline.ts';

const ROOT = resolve(import.meta.dirname, '..');

/** What every function is configured with at cold start (they fail loudly without it). */
export const BENCH_FUNCTION_ENV = {
  TABLE_NAME: 'bench',
  AWS_REGION: 'us-east-1',
  WEBHOOK_DELIVERY_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-deliveries',
  WEBHOOK_DEAD_LETTER_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-dead-letters',
  SURVEY_EXPORT_BUCKET: 'bench-survey-exports',
  SURVEY_EXPORT_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-survey-exports',
  KB_SEARCH_BUCKET: 'bench-search-index',
  KB_LINK_CHECK_QUEUE_URL: 'https://sqs.us-east-1.amazonaws.com/000000000000/bench-link-checks',
  CURSOR_SIGNING_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-cursor-key',
  API_REFERENCE_FILE: 'api-reference.html',
  OPENAPI_DOCUMENT_FILE: 'openapi.json',
};

type Shipping = 'runtime' | 'bundled';

interface Bundle {
  file: string;
  bytes: number;
}

/** esbuild with the arguments CDK's NodejsFunction passes for HOUSE_BUNDLING (aws-lambda-nodejs/lib/bundling.js). */
async function bundle(out: string, name: string, shipping: Shipping, source: { entry: string } | { contents: string }): Promise<Bundle> {
  const file = join(out, shipping, name, 'index.mjs');
  await build({
    ...('entry' in source
      ? { entryPoints: [resolve(ROOT, source.entry)] }
      : { stdin: { contents: source.contents, resolveDir: ROOT, loader: 'ts' } }),
    bundle: true,
    platform: 'node',
    format: HOUSE_BUNDLING.format,
    target: HOUSE_BUNDLING.target,
    minify: HOUSE_BUNDLING.minify,
    sourcemap: HOUSE_BUNDLING.sourceMap,
    mainFields: [...HOUSE_BUNDLING.mainFields],
    banner: { js: HOUSE_BUNDLING.banner },
    // CDK's default for Node 18 and later (without the feature flag that also leaves out @smithy/*), or nothing.
    external: shipping === 'bundled' ? [] : ['@aws-sdk/*'],
    outfile: file,
    logLevel: 'silent',
  });
  return { file, bytes: statSync(file).size };
}

/**
 * The CPU milliseconds a fresh process spends from its start to the end of importing `file`, as
 * Lambda's init runs it. CPU time, not wall time: this machine is shared, and a loaded one stretches
 * wall time by however long the process waits for a core, while an init is all CPU (parsing and
 * compiling the bundle, reading files from the page cache), so on a core of its own, as in Lambda,
 * its wall time is its CPU time.
 */
function initOnce(file: string, sourceMaps = true): number {
  const url = JSON.stringify(pathToFileURL(file).href);
  try {
    const output = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `await import(${url}); const { user, system } = process.cpuUsage(); process.stdout.write(String((user + system) / 1000))`,
      ],
      {
        env: { ...process.env, ...BENCH_FUNCTION_ENV, NODE_OPTIONS: sourceMaps ? HOUSE_NODE_OPTIONS : '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return Number(output.toString());
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '');
    throw new Error(stderr.split('\n').find((line) => /Error/.test(line)) ?? (error as Error).message);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

type Variant = 'runtime' | 'bundled' | 'bundledWithoutSourceMaps';
const VARIANTS: Variant[] = ['runtime', 'bundled', 'bundledWithoutSourceMaps'];

/** Median init of each variant of one function, the runs alternating between them. */
function initMedians(pair: Record<Shipping, Bundle>, runs: number): Record<Variant, number> {
  const samples: Record<Variant, number[]> = { runtime: [], bundled: [], bundledWithoutSourceMaps: [] };
  for (let run = 0; run < runs; run++) {
    samples.runtime.push(initOnce(pair.runtime.file));
    samples.bundled.push(initOnce(pair.bundled.file));
    samples.bundledWithoutSourceMaps.push(initOnce(pair.bundled.file, false));
  }
  return {
    runtime: median(samples.runtime),
    bundled: median(samples.bundled),
    bundledWithoutSourceMaps: median(samples.bundledWithoutSourceMaps),
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
const ms = (value: number) => value.toFixed(0);

/** The functions the stack deploys with a handler of their own: every route's, the not-found route's, the webhook pipeline's. */
function functionsToMeasure(): [string, string][] {
  const all: [string, string][] = [
    ...routes.map((r) => [r.operationId, r.handler] as [string, string]),
    ['notFound', NOT_FOUND_HANDLER],
    ['webhookFanOut', ideaAndResponseChanges.handler],
    ['webhookDelivery', webhookDelivery.handler],
  ];
  // BENCH_FUNCTIONS=getIdea,getJourneyMapPicture: only these.
  const only = process.env.BENCH_FUNCTIONS?.split(',');
  return only ? all.filter(([name]) => only.includes(name)) : all;
}

export async function reportColdStarts(out: string, runs = Number(process.env.BENCH_COLD_START_RUNS ?? 5)): Promise<void> {
  console.log(`## Cold start: init of each function as Lambda runs it (median of ${runs} fresh processes, CPU ms)\n`);
  console.log(
    'Runtime SDK: `@aws-sdk/*` outside the bundle, as the Lambda runtime provides it; SDK bundled: one minified file. ' +
      `Both with \`NODE_OPTIONS=${HOUSE_NODE_OPTIONS}\` as deployed; the last column without it. ` +
      `"+" is the function beyond the hello-world bundle of the same run. Load average at the start: ${loadavg()[0]!.toFixed(1)}.\n`,
  );
  const helloSource = { contents: 'export const handler = async () => ({ statusCode: 200, body: "hello" });' };
  const hello = {
    runtime: await bundle(out, 'hello', 'runtime', helloSource),
    bundled: await bundle(out, 'hello', 'bundled', helloSource),
  };
  const floor = initMedians(hello, runs * 2);
  console.log(
    '| function | size, runtime SDK | size, SDK bundled | init, runtime SDK | + | init, SDK bundled | + | bundled, no source maps | + |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(
    `| hello world | ${kb(hello.runtime.bytes)} | ${kb(hello.bundled.bytes)} | ${ms(floor.runtime)} | | ${ms(floor.bundled)} | | ${ms(floor.bundledWithoutSourceMaps)} | |`,
  );
  const rows: Record<Variant, number>[] = [];
  for (const [name, entry] of functionsToMeasure()) {
    const pair = { runtime: await bundle(out, name, 'runtime', { entry }), bundled: await bundle(out, name, 'bundled', { entry }) };
    try {
      const init = initMedians(pair, runs);
      rows.push(init);
      const cells = VARIANTS.map((variant) => `${ms(init[variant])} | ${ms(init[variant] - floor[variant])}`);
      console.log(`| ${name} | ${kb(pair.runtime.bytes)} | ${kb(pair.bundled.bytes)} | ${cells.join(' | ')} |`);
    } catch (error) {
      console.log(`| ${name} | ${kb(pair.runtime.bytes)} | ${kb(pair.bundled.bytes)} | fails: ${(error as Error).message} | | | | | |`);
    }
  }
  const across = (variant: Variant) => ms(median(rows.map((row) => row[variant])));
  const faster = rows.filter((row) => row.bundled < row.runtime).length;
  console.log(
    `\nMedian over ${rows.length} functions: runtime SDK ${across('runtime')} ms, SDK bundled ${across('bundled')} ms, ` +
      `bundled without source maps ${across('bundledWithoutSourceMaps')} ms (hello world ${ms(floor.runtime)} ms). ` +
      `The bundled SDK is faster for ${faster} of ${rows.length}; cdk/bundling.ts ships the SDK ${HOUSE_BUNDLING.bundleAwsSDK ? 'bundled' : 'from the runtime'}.\n`,
  );
}
