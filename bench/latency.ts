/**
 * What a caller waits for once DynamoDB answers as it does in a region, before and after issue 31
 * (authenticated reads in two round trips), in one run. Two sandboxes, each in a process of its own
 * (bench/latency-sandbox.ts), with the same AWS-like latency on every DynamoDB call
 * (SANDBOX_DYNAMODB_LATENCY_MS, default 4 ms median): this tree, and the commit before the change
 * (BENCH_LATENCY_BASE) checked out into a temporary git worktree that shares this tree's
 * node_modules. So nothing in the production path knows it is being compared: the old code runs as
 * it was. Each scenario is set up in both, then the requests alternate between them, so a change of
 * the machine's load touches both alike; p50 and p95 over BENCH_ITERATIONS requests each.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createLocalTableClient } from '../lib/admin/table-client.ts';
import type { Sandbox } from '../local/sandbox.ts';
import type { BenchContext, Scenario } from './harness.ts';
import { scenarios } from './scenarios.ts';

const ROOT = resolve(import.meta.dirname, '..');
/** main before issue 31: the workspace and key read, then the count, then the operation. */
const BASE = process.env.BENCH_LATENCY_BASE ?? '80f909549f23aef2fa56b9a288b0c2ab2927133f';

/** Reads (two round trips after the change, three before) and writes (three either way), each set up through the API. */
const MEASURED = [
  'GET /me',
  'GET /ideas/{id}',
  'GET /ideas (100 ideas, first page)',
  'GET /journeys/{id}',
  'GET /sops/{id}',
  'GET /webhooks/{id}',
  'GET /surveys/{id}/responses/{responseId}',
  'GET /knowledge-bank/articles/{id}?view=live (200 blocks)',
  'POST /ideas',
  'PATCH /ideas/{id}',
  'POST /sops',
  'PATCH /webhooks/{id} (name)',
];

interface RunningSandbox {
  sandbox: Sandbox;
  stop(): Promise<void>;
}

/** The sandbox of `tree` in a child process, its DynamoDB calls delayed around `medianMs`. */
async function startSandboxOf(tree: string, medianMs: number): Promise<RunningSandbox> {
  const { SANDBOX_DYNAMODB_LATENCY_MS: _applied, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/latency-sandbox.ts'), tree, String(medianMs)], {
    cwd: tree,
    env,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once('line', done);
    child.once('exit', (code) => fail(new Error(`The sandbox of ${tree} exited (${code}) before it was ready`)));
  });
  const { apiUrl, dynamodbEndpoint, tableName } = JSON.parse(line) as { apiUrl: string; dynamodbEndpoint: string; tableName: string };
  // Bench scenarios set up their workspace and key with the operator tools (this tree's: the layout they write is the same).
  const sandbox = { apiUrl, store: createLocalTableClient(tableName, dynamodbEndpoint) } as Sandbox;
  return {
    sandbox,
    stop: async () => {
      child.stdin!.end();
      await exited;
    },
  };
}

/** The commit to compare with, checked out beside this tree, sharing its node_modules. */
function baseWorktree(): { tree: string; remove(): void } {
  const tree = join(mkdtempSync(join(tmpdir(), 'cx-bench-base-')), 'tree');
  execFileSync('git', ['worktree', 'add', '--detach', tree, BASE], { cwd: ROOT, stdio: 'ignore' });
  symlinkSync(join(ROOT, 'node_modules'), join(tree, 'node_modules'), 'dir');
  return {
    tree,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', tree], { cwd: ROOT, stdio: 'ignore' });
      if (existsSync(tree)) rmSync(tree, { recursive: true, force: true });
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

async function timed(scenario: Scenario, context: BenchContext): Promise<{ ms: number; calls: number; depth: number; status: number }> {
  const started = performance.now();
  const res = await scenario.request(context);
  await res.arrayBuffer();
  const ms = performance.now() - started;
  const header = (name: string) => Number(res.headers.get(name) ?? Number.NaN);
  return { ms, calls: header('x-sandbox-dynamodb-calls'), depth: header('x-sandbox-dynamodb-depth'), status: res.status };
}

export async function benchLatency(): Promise<void> {
  const medianMs = Number(process.env.SANDBOX_DYNAMODB_LATENCY_MS || 4);
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
  const selected = MEASURED.map((name) => {
    const scenario = scenarios.find((s) => s.name === name);
    if (!scenario) throw new Error(`bench/latency.ts measures "${name}", which bench/scenarios.ts no longer has`);
    return scenario;
  });
  console.log(`\n## DynamoDB latency: before and after issue 31 (${medianMs} ms median per call, ${iterations} requests each)\n`);
  console.log(
    `Before: ${BASE.slice(0, 7)} (BENCH_LATENCY_BASE), from a temporary worktree; after: this tree. ` +
      `Calls and depth as the sandbox counts them (the commit before reports no depth). Load average at the start: ${loadavg()[0]!.toFixed(1)}.\n`,
  );
  const base = baseWorktree();
  const running: RunningSandbox[] = [];
  try {
    const [before, after] = await Promise.all([startSandboxOf(base.tree, medianMs), startSandboxOf(ROOT, medianMs)]);
    running.push(before!, after!);
    console.log(
      '| operation | status | calls before → after | depth after | p50 before | p50 after | p95 before | p95 after | p50 saved |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const scenario of selected) {
      const contexts = [await scenario.setup(before!.sandbox), await scenario.setup(after!.sandbox)] as const;
      // Warm each handler module and each key's rate-limit window first.
      await Promise.all(contexts.map(async (context) => (await scenario.request(context)).arrayBuffer()));
      const samples = [[], []] as [Awaited<ReturnType<typeof timed>>[], Awaited<ReturnType<typeof timed>>[]];
      for (let i = 0; i < iterations; i++) {
        for (const side of [0, 1] as const) samples[side].push(await timed(scenario, contexts[side]));
      }
      const [was, now] = samples.map((runs) => ({
        p50: percentile(
          runs.map((r) => r.ms),
          0.5,
        ),
        p95: percentile(
          runs.map((r) => r.ms),
          0.95,
        ),
        last: runs.at(-1)!,
      }));
      console.log(
        `| ${scenario.name} | ${now!.last.status} | ${was!.last.calls} → ${now!.last.calls} | ${now!.last.depth} | ` +
          `${was!.p50.toFixed(1)} | ${now!.p50.toFixed(1)} | ${was!.p95.toFixed(1)} | ${now!.p95.toFixed(1)} | ${(was!.p50 - now!.p50).toFixed(1)} |`,
      );
    }
  } finally {
    await Promise.all(running.map((sandbox) => sandbox.stop()));
    base.remove();
  }
}
