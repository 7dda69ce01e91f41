/**
 * `npm run bench:costs`: what one call of each operation costs in AWS, from what it really consumes.
 * The one walk through every operation (test/integration/api-examples.test.ts) runs against a sandbox
 * that logs, per request, the DynamoDB capacity units its calls consumed (ReturnConsumedCapacity) and
 * the handler's time (local/consumed-capacity.ts). Each operation's cost per million calls is then
 * priced with bench/prices.ts: HTTP API request + Lambda request + Lambda GB-seconds at the functions'
 * memory + DynamoDB request units. Handler time in the sandbox includes DynamoDB Local's latency,
 * which is slower than DynamoDB's, so the Lambda share is an upper bound.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { routes } from '../lib/manifest.ts';
import { PRICES } from './prices.ts';

/** HouseFunction's memory (cdk/constructs/api-function.ts). */
const FUNCTION_MEMORY_GB = 512 / 1024;

interface CostLine {
  operationId: string;
  status: number;
  readUnits: number;
  writeUnits: number;
  ms: number;
  calls: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
};

export function dollarsPerMillion(line: Pick<CostLine, 'readUnits' | 'writeUnits' | 'ms'>): number {
  const billedSeconds = Math.max(1, Math.ceil(line.ms)) / 1000;
  return (
    PRICES.httpApiPerMillionRequests +
    PRICES.lambdaPerMillionRequests +
    1e6 * billedSeconds * FUNCTION_MEMORY_GB * PRICES.lambdaArmPerGbSecond +
    line.readUnits * PRICES.dynamoDbPerMillionReadUnits +
    line.writeUnits * PRICES.dynamoDbPerMillionWriteUnits
  );
}

function measure(): Map<string, CostLine> {
  const log = join(mkdtempSync(join(tmpdir(), 'cx-costs-')), 'costs.jsonl');
  const root = resolve(import.meta.dirname, '..');
  const run = spawnSync('npx', ['vitest', 'run', '--project', 'integration', 'test/integration/api-examples.test.ts'], {
    cwd: root,
    env: { ...process.env, SANDBOX_COST_LOG: log },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (run.status !== 0) throw new Error('The walk through every operation failed; run it alone to see why');
  const lines = readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CostLine)
    .filter((line) => line.status < 300);
  const byOperation = new Map<string, CostLine>();
  for (const operationId of new Set(lines.map((l) => l.operationId))) {
    const mine = lines.filter((l) => l.operationId === operationId);
    // Skip the first call of an operation when there are more: it includes loading the handler (a cold start).
    const warm = mine.length > 1 ? mine.slice(1) : mine;
    byOperation.set(operationId, {
      operationId,
      status: mine[0]!.status,
      readUnits: median(warm.map((l) => l.readUnits)),
      writeUnits: median(warm.map((l) => l.writeUnits)),
      ms: median(warm.map((l) => l.ms)),
      calls: median(warm.map((l) => l.calls)),
    });
  }
  return byOperation;
}

/** A tenant's month: how many calls, and which share of them reads (GET) rather than writes. */
const TENANTS = [
  { name: 'small', callsPerMonth: 100_000, readShare: 0.8, storageGb: 0.5 },
  { name: 'medium', callsPerMonth: 2_000_000, readShare: 0.85, storageGb: 5 },
  { name: 'large', callsPerMonth: 30_000_000, readShare: 0.9, storageGb: 50 },
];

function main(): void {
  const costs = measure();
  const rows = routes
    .map((route) => ({ route, cost: costs.get(route.operationId) }))
    .filter((row): row is { route: (typeof routes)[number]; cost: CostLine } => row.cost !== undefined);
  console.log(`Prices: ${PRICES.region}, checked ${PRICES.checked} (bench/prices.ts); Lambda arm64 at ${FUNCTION_MEMORY_GB * 1024} MB\n`);
  console.log('| operation | DynamoDB calls | read units | write units | handler ms | $ per million calls |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const { route, cost } of rows) {
    console.log(
      `| ${route.method} ${route.path || '/'} | ${cost.calls} | ${cost.readUnits.toFixed(1)} | ${cost.writeUnits.toFixed(1)} | ${cost.ms.toFixed(1)} | ${dollarsPerMillion(cost).toFixed(2)} |`,
    );
  }
  const average = (kind: 'read' | 'write') => {
    const chosen = rows.filter(({ route }) => (route.method === 'GET') === (kind === 'read'));
    return chosen.reduce((sum, { cost }) => sum + dollarsPerMillion(cost), 0) / Math.max(1, chosen.length);
  };
  const [readCost, writeCost] = [average('read'), average('write')];
  console.log(`\nAverage $ per million calls: reads ${readCost.toFixed(2)}, writes ${writeCost.toFixed(2)}`);
  // One errors alarm per route function, plus the service's, the webhook pipeline's and the knowledge bank's (about 15).
  const alarms = routes.length + 15;
  const fixed = PRICES.cloudWatchDashboardPerMonth + alarms * PRICES.cloudWatchAlarmPerMonth + PRICES.secretPerMonth;
  console.log(`Fixed per deployment a month (one dashboard, ${alarms} alarms, one secret): $${fixed.toFixed(2)}`);
  console.log(
    `Load average while measuring: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (handler times grow with it)\n`,
  );
  console.log('| tenant | calls a month | reads | requests (API, Lambda, DynamoDB) | storage + PITR | a month |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const tenant of TENANTS) {
    const millions = tenant.callsPerMonth / 1e6;
    const requests = millions * (tenant.readShare * readCost + (1 - tenant.readShare) * writeCost);
    const storage = tenant.storageGb * (PRICES.dynamoDbStoragePerGbMonth + PRICES.dynamoDbPitrPerGbMonth);
    console.log(
      `| ${tenant.name} | ${tenant.callsPerMonth.toLocaleString('en')} | ${Math.round(tenant.readShare * 100)} % | $${requests.toFixed(2)} | $${storage.toFixed(2)} (${tenant.storageGb} GB) | $${(requests + storage).toFixed(2)} |`,
    );
  }
}

main();
