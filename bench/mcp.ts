/**
 * `npm run bench:mcp`: what the MCP server adds to the API it calls. Against a fresh sandbox, each
 * MCP request beside the REST request it makes (tools/list ↔ GET /me, a tool call ↔ its operation),
 * median and p95 over `BENCH_MCP_RUNS` (30) runs, with the DynamoDB calls each made; and what a cold
 * start pays to build the tools from the manifest (their input schemas are rendered when first used);
 * then the init of the two MCP functions beside getIdea's, bundled as deployed (bench/cold-start.ts).
 *
 *   npm run bench:mcp                      # the table docs/mcp.md quotes
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { routes } from '../lib/manifest.ts';
import { agentTools } from '../lib/mcp/tools.ts';
import { reportColdStarts } from './cold-start.ts';
import { type BenchContext, benchWorkspace, send } from './harness.ts';

const RUNS = Number(process.env.BENCH_MCP_RUNS ?? 30);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

/** One JSON-RPC message to the MCP server, as a 2025-era client sends it after `initialize` (stateless: no session). */
function mcp(context: BenchContext, method: string, params?: unknown): Promise<Response> {
  return send(
    context,
    'POST',
    '/mcp',
    { jsonrpc: '2.0', id: 1, method, ...(params ? { params } : {}) },
    {
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
    },
  );
}

/**
 * The REST request and the MCP request that makes it, alternately, so the machine's load falls on
 * both alike: their medians and p95s, and the median of what each MCP request added to its pair.
 */
async function compare(name: string, rest: () => Promise<Response>, viaMcp: () => Promise<Response>): Promise<string[]> {
  const timings = { rest: [] as number[], mcp: [] as number[] };
  const calls = { rest: '', mcp: '' };
  for (let run = 0; run < RUNS + 2; run++) {
    for (const [side, request] of [
      ['rest', rest],
      ['mcp', viaMcp],
    ] as const) {
      const started = performance.now();
      const res = await request();
      const text = await res.text();
      if (!res.ok || text.includes('"isError":true')) throw new Error(`${name} (${side}): ${res.status} ${text.slice(0, 300)}`);
      // The first two runs warm the handler modules up (a cold start is not what this compares).
      if (run >= 2) timings[side].push(performance.now() - started);
      calls[side] = res.headers.get('x-sandbox-dynamodb-calls') ?? '?';
    }
  }
  const added = timings.mcp.map((ms, i) => ms - timings.rest[i]!);
  const row = (label: string, side: 'rest' | 'mcp') =>
    `| ${label} | ${calls[side]} | ${percentile(timings[side], 0.5).toFixed(1)} | ${percentile(timings[side], 0.95).toFixed(1)} |`;
  return [
    row(name.split(' ↔ ')[0]!, 'rest'),
    row(name.split(' ↔ ')[1]!, 'mcp'),
    `| … added by MCP (median of pairs) | | ${percentile(added, 0.5).toFixed(1)} | |`,
  ];
}

let started = performance.now();
const tools = agentTools(routes);
const buildMs = performance.now() - started;
started = performance.now();
const schemaBytes = tools.reduce((bytes, tool) => bytes + JSON.stringify(tool.inputSchema).length, 0);
const renderMs = performance.now() - started;

const { startSandbox } = await import('../local/sandbox.ts');
const sandbox = await startSandbox({ port: 0, tableName: 'cx-portal-bench-mcp' });
try {
  const context = await benchWorkspace(sandbox, 'mcp');
  const created = await send(context, 'POST', '/ideas', { title: 'Benchmark idea' });
  const ideaId = ((await created.json()) as { data: { id: string } }).data.id;
  const rows = [
    ...(await compare(
      'GET /me ↔ MCP tools/list',
      () => send(context, 'GET', '/me'),
      () => mcp(context, 'tools/list'),
    )),
    ...(await compare(
      'GET /ideas/{id} ↔ MCP tools/call get_idea',
      () => send(context, 'GET', `/ideas/${ideaId}`),
      () => mcp(context, 'tools/call', { name: 'get_idea', arguments: { id: ideaId } }),
    )),
    ...(await compare(
      'POST /ideas ↔ MCP tools/call create_idea',
      () => send(context, 'POST', '/ideas', { title: 'A new idea' }),
      () => mcp(context, 'tools/call', { name: 'create_idea', arguments: { body: { title: 'A new idea' } } }),
    )),
  ];
  const listed = await (await mcp(context, 'tools/list')).text();
  console.log(
    `\n${tools.length} tools from the manifest in ${buildMs.toFixed(0)} ms, every input schema (${(schemaBytes / 1024).toFixed(0)} KB) in ${renderMs.toFixed(0)} ms`,
  );
  console.log(
    `load average at the end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(', ')}`,
  );
  console.log(`tools/list for a key with every permission: ${(listed.length / 1024).toFixed(1)} KB`);
  console.log(`${RUNS} runs each (after 2 to warm up); DynamoDB calls are the MCP function's own (the API's are its operation's)\n`);
  console.log('| request | DynamoDB calls | median ms | p95 ms |\n|---|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  await sandbox.stop();
}

// Issue 42: what the MCP function's weight costs at init, beside a REST operation's (getIdea), each
// bundled and imported in fresh processes as Lambda's init does. Bundles live under node_modules, where
// the runtime-SDK variant resolves `@aws-sdk/*` as the Lambda runtime would.
process.env.BENCH_FUNCTIONS ??= 'getIdea,callMcpServer,callMcpServerReadOnly';
const ROOT = resolve(import.meta.dirname, '..');
mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(ROOT, 'node_modules/.cache/cx-bench-mcp-'));
try {
  await reportColdStarts(out);
} finally {
  rmSync(out, { recursive: true, force: true });
}
