/**
 * `npm run bench` (`BENCH_ONLY=tenants` for this part alone): what a workspace's request budget and its
 * usage cost (issue 41), measured in one run so they compare as ratios.
 *
 *   - The budget's check per request: GET /me and GET /ideas/{id} admitted with the plan's budget as it
 *     is, GET /me with a budget of 10,000 a second (40 shards), and GET /me refused by a spent budget
 *     (429 `workspace_rate_limited`): DynamoDB calls and depth (the sandbox's X-Sandbox-DynamoDB-* headers),
 *     read and write units per request (ReturnConsumedCapacity, as the usage meter asks it on every
 *     call), median and p95 latency.
 *   - The usage writes of one instance (the sandbox is one process): X-Sandbox-Usage-Writes per 1,000
 *     requests and their write units, at the pace this machine serves them.
 *
 * Latency here is the sandbox's on a shared machine: read the ratios, and the load average printed.
 */
import { loadavg } from 'node:os';
import type { RequestBudget } from '../lib/platform/tenants/budget.ts';
import type { Sandbox } from '../local/sandbox.ts';
import { type BenchContext, benchWorkspace, send } from './harness.ts';

interface UnitTally {
  read: number;
  write: number;
}

interface CapacityClient {
  middlewareStack: {
    add: (middleware: never, options: { step: 'initialize'; name: string }) => void;
    remove: (name: string) => boolean;
  };
}

type Consumed = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined;
const READS = /^(Get|Query|Scan|BatchGet|TransactGet)/;

/** Adds every call's consumed units to `current()` while there is one; answers how to take the middleware off. */
function tallyUnits(client: CapacityClient, name: string, current: () => UnitTally | undefined): () => void {
  const measure =
    (
      next: (args: { input: Record<string, unknown> }) => Promise<{ output?: { ConsumedCapacity?: Consumed } }>,
      context: { commandName?: string },
    ) =>
    async (args: { input: Record<string, unknown> }) => {
      const tally = current();
      if (!tally) return next(args);
      args.input.ReturnConsumedCapacity ??= 'TOTAL';
      const result = await next(args);
      const consumed = result.output?.ConsumedCapacity;
      const units = (Array.isArray(consumed) ? consumed : consumed ? [consumed] : []).reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      if (READS.test(context.commandName ?? '')) tally.read += units;
      else tally.write += units;
      return result;
    };
  client.middlewareStack.add(measure as never, { step: 'initialize', name });
  return () => client.middlewareStack.remove(name);
}

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const median = (values: number[]) => sorted(values)[Math.floor((values.length - 1) / 2)] ?? 0;
const p95 = (values: number[]) => sorted(values)[Math.min(values.length - 1, Math.floor(values.length * 0.95))] ?? 0;
const average = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const figure = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

interface Measured {
  status: number;
  error: string | undefined;
  calls: number;
  depth: number;
  units: UnitTally;
  ms: number;
  usageWrites: number;
}

export async function reportTenantCosts(sandbox: Sandbox): Promise<void> {
  const { dynamo } = await import('../lib/platform/data/client.ts');
  const { usageDynamo } = await import('../lib/platform/data/usage-writes.ts');
  // Imported once the sandbox has set the handlers' environment (their logger's level among it).
  const { setRequestBudget } = await import('../lib/admin/workspaces.ts');
  const { budgetShards } = await import('../lib/platform/tenants/budget.ts');
  const { config } = await import('../lib/platform/config.ts');
  let requestUnits: UnitTally | undefined;
  let usageUnits: UnitTally | undefined;
  const untallied = [
    tallyUnits(dynamo as unknown as CapacityClient, 'benchTenantRequestUnits', () => requestUnits),
    tallyUnits(usageDynamo as unknown as CapacityClient, 'benchTenantUsageUnits', () => usageUnits),
  ];

  /** One request, its calls, units and time; usage writes beside it counted apart. */
  async function measured(context: BenchContext, path: string): Promise<Measured> {
    const units = { read: 0, write: 0 };
    requestUnits = units;
    const started = performance.now();
    const res = await send(context, 'GET', path);
    const body = (await res.json()) as { error?: string };
    const ms = performance.now() - started;
    requestUnits = undefined;
    return {
      status: res.status,
      error: body.error,
      calls: Number(res.headers.get('x-sandbox-dynamodb-calls')),
      depth: Number(res.headers.get('x-sandbox-dynamodb-depth')),
      units,
      ms,
      usageWrites: Number(res.headers.get('x-sandbox-usage-writes') ?? 0),
    };
  }

  const iterations = Number(process.env.BENCH_ITERATIONS ?? 40);
  const row = (name: string, runs: Measured[]) => {
    const same = (pick: (m: Measured) => number) => {
      const values = [...new Set(runs.map(pick))];
      return values.length === 1 ? figure(values[0] as number) : `${figure(Math.min(...values))}–${figure(Math.max(...values))}`;
    };
    console.log(
      `| ${name} | ${runs.length} | ${same((m) => m.status)} | ${same((m) => m.calls)} | ${same((m) => m.depth)} | ${figure(average(runs.map((m) => m.units.read)))} | ${figure(average(runs.map((m) => m.units.write)))} | ${median(runs.map((m) => m.ms)).toFixed(1)} | ${p95(runs.map((m) => m.ms)).toFixed(1)} |`,
    );
  };
  /**
   * `times` requests after `warm` untimed ones: the handler warm, the key's counter made and every
   * shard of the budget (DynamoDB Local answers 0 units for an absent item, where AWS bills the minimum).
   */
  const repeat = async (context: BenchContext, path: string, warm: number, times = iterations) => {
    for (let i = 0; i < warm; i++) await measured(context, path);
    const runs: Measured[] = [];
    for (let i = 0; i < times; i++) runs.push(await measured(context, path));
    return runs;
  };

  try {
    console.log('\n## Tenants: what the budget check and the usage cost (ReturnConsumedCapacity)\n');
    console.log(
      `Load average at the start: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    console.log(
      '| request | n | status | DynamoDB calls | depth | read units | write units | median ms | p95 ms |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    );

    // The sandbox warm first (its handlers compiled, its clients connected), so the first row is not the slowest for that alone.
    await repeat(await benchWorkspace(sandbox, 'budget'), '/me', iterations);
    // Ten requests per shard leave a shard unmade about once in 10,000 times (e^-10 per shard).
    const warmAll = (budget: RequestBudget) => 10 * budgetShards(budget);
    const plan = await benchWorkspace(sandbox, 'budget');
    const planShards = budgetShards(config.workspaceBudget());
    row(`GET /me, the plan's budget (${planShards} shards)`, await repeat(plan, '/me', warmAll(config.workspaceBudget())));
    const idea = await send(plan, 'POST', '/ideas', { title: 'A budgeted idea' });
    const ideaId = ((await idea.json()) as { data: { id: string } }).data.id;
    row(`GET /ideas/{id}, the plan's budget (${planShards} shards)`, await repeat(plan, `/ideas/${ideaId}`, 1));

    const large = await benchWorkspace(sandbox, 'budget');
    const { requestBudget } = await setRequestBudget(sandbox.store, large.slug, { requestsPerSecond: 10_000 });
    const largeBudget = requestBudget as RequestBudget;
    row(`GET /me, a budget of 10,000/s (${budgetShards(largeBudget)} shards)`, await repeat(large, '/me', warmAll(largeBudget)));

    // A budget of one request a second: after the first, the shard's share is spent for a window and more.
    const spent = await benchWorkspace(sandbox, 'budget');
    await setRequestBudget(sandbox.store, spent.slug, { requestsPerSecond: 1, burst: 1 });
    const tried = await repeat(spent, '/me', 1);
    const refused = tried.filter((m) => m.status === 429);
    const wrong = refused.filter((m) => m.error !== 'workspace_rate_limited');
    if (wrong.length > 0) throw new Error(`A refusal was not the workspace's: ${wrong[0]?.error}`);
    row('GET /me refused by the spent budget (429 workspace_rate_limited)', refused);
    if (refused.length < tried.length)
      row(
        '  (the same workspace, admitted between its windows)',
        tried.filter((m) => m.status !== 429),
      );

    // Usage: one instance's writes per 1,000 requests, at this machine's pace.
    const { flushUsage } = await import('../lib/platform/data/usage-writes.ts');
    await flushUsage({ force: true });
    const metered = await benchWorkspace(sandbox, 'usage');
    await measured(metered, '/me');
    await flushUsage({ force: true });
    const requests = Number(process.env.BENCH_USAGE_REQUESTS ?? 1_000);
    usageUnits = { read: 0, write: 0 };
    let writes = 0;
    const own = { read: 0, write: 0 };
    const started = performance.now();
    for (let i = 0; i < requests; i++) {
      const m = await measured(metered, '/me');
      writes += m.usageWrites;
      own.read += m.units.read;
      own.write += m.units.write;
    }
    const seconds = (performance.now() - started) / 1000;
    const { write } = usageUnits;
    usageUnits = undefined;
    const perThousand = (n: number) => ((1_000 * n) / requests).toFixed(1);
    console.log(
      `\nUsage writes of one instance: ${requests.toLocaleString('en')} GET /me in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)} a second): ` +
        `${writes} usage writes beside them (X-Sandbox-Usage-Writes), ${perThousand(writes)} per 1,000 requests, ` +
        `${figure(write)} write units (${perThousand(write)} per 1,000 requests, ${figure(write / Math.max(1, writes))} a write); ` +
        `beside the requests' own ${figure(own.read)} read and ${figure(own.write)} write units.`,
    );
    console.log(
      `Load average at the end: ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
  } finally {
    requestUnits = undefined;
    usageUnits = undefined;
    for (const off of untallied) off();
  }
}
