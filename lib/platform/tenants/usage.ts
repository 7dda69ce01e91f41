/**
 * Usage per workspace (issue 41), pure: what one request or event adds to its workspace's hour, and
 * the report GET /usage and `cxctl usage` read back from the hours or days kept
 * (lib/platform/data/usage-writes.ts writes them; docs/operating.md, "Tenants", says how).
 *
 * Counters are flat numeric attributes of a usage item, so one UpdateItem ADDs any of them without
 * a map having to exist first: the totals (`requests`, `readUnits`, `writeUnits`, `gbSeconds`,
 * `bytesOut`, `sqsRequests`, `deliveries`, `exportBytes`) and, per operation, `op:<operationId>:<2xx…>`
 * requests by status class and `op:<operationId>:readUnits` / `:writeUnits`.
 */
import type { UnitPrices } from './prices.ts';

export type Counters = Record<string, number>;

/**
 * The log line each hour's usage write leaves, once per workspace, instance and write (about once a
 * second at most, not once a request): what the stack's Contributor Insights rules rank workspaces
 * by, top requests and top capacity units (cdk/constructs/tenant-insights.ts reads these names).
 */
export const USAGE_LOG = {
  message: 'Workspace usage written',
  workspace: 'usageWorkspace',
  requests: 'usageRequests',
  capacityUnits: 'usageCapacityUnits',
} as const;

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
type StatusClass = (typeof STATUS_CLASSES)[number];

/** The operation whose requests are the workspace's search queries. */
const SEARCH_OPERATION = 'searchKnowledgeBank';

export interface RequestUsage {
  operationId: string;
  status: number;
  /** Capacity units DynamoDB said the request's calls consumed (ReturnConsumedCapacity: TOTAL). */
  readUnits: number;
  writeUnits: number;
  /** The invocation's duration × the function's memory, in GB-seconds (Lambda bills by the millisecond). */
  gbSeconds: number;
  /** The answer's bytes: body and headers. */
  bytesOut: number;
  sqsRequests: number;
}

const classOf = (status: number): StatusClass => STATUS_CLASSES[Math.min(3, Math.max(0, Math.floor(status / 100) - 2))]!;

/** What one API request adds to its workspace's hour. */
export function countersOfRequest(usage: RequestUsage): Counters {
  const op = `op:${usage.operationId}`;
  return withoutZeros({
    requests: 1,
    readUnits: usage.readUnits,
    writeUnits: usage.writeUnits,
    gbSeconds: usage.gbSeconds,
    bytesOut: usage.bytesOut,
    sqsRequests: usage.sqsRequests,
    [`${op}:${classOf(usage.status)}`]: 1,
    [`${op}:readUnits`]: usage.readUnits,
    [`${op}:writeUnits`]: usage.writeUnits,
  });
}

/** What work done apart from a request adds: a webhook delivery attempt, an export's bytes. */
export function countersOfWork(work: { deliveries?: number; exportBytes?: number; sqsRequests?: number }): Counters {
  return withoutZeros({ deliveries: work.deliveries ?? 0, exportBytes: work.exportBytes ?? 0, sqsRequests: work.sqsRequests ?? 0 });
}

function withoutZeros(counters: Counters): Counters {
  return Object.fromEntries(Object.entries(counters).filter(([, amount]) => amount !== 0));
}

export function addCounters(into: Counters, more: Counters): Counters {
  for (const [name, amount] of Object.entries(more)) into[name] = roundUnits((into[name] ?? 0) + amount);
  return into;
}

/** Sums of fractions (half read units, GB-seconds) kept to nine decimals, so they stay exact in DynamoDB's numbers. */
const roundUnits = (n: number) => Math.round(n * 1e9) / 1e9;

/** The UTC hour (`2026-11-26T09`) a moment falls in. */
export function hourOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13);
}

export type Granularity = 'hour' | 'day';

/** What a usage item holds besides its counters. */
const NOT_COUNTERS = new Set(['pk', 'sk', 'ttl', 'entity']);

/** A usage item (`H#<hour>` or `D#<day>`) as its period's name and counters. */
export function periodOfItem(item: Record<string, unknown>): { period: string; counters: Counters } {
  return {
    period: String(item.sk).slice(2),
    counters: Object.fromEntries(
      Object.entries(item).filter(([name, value]) => !NOT_COUNTERS.has(name) && typeof value === 'number'),
    ) as Counters,
  };
}

/** What each price applies to, from a period's counters. */
function estimatedCostUsd(counters: Counters, prices: UnitPrices): number {
  const c = (name: string) => counters[name] ?? 0;
  const dollars =
    (c('requests') * (prices.httpApiPerMillionRequests + prices.lambdaPerMillionRequests)) / 1e6 +
    c('gbSeconds') * prices.lambdaArmPerGbSecond +
    (c('readUnits') * prices.dynamoDbPerMillionReadUnits) / 1e6 +
    (c('writeUnits') * prices.dynamoDbPerMillionWriteUnits) / 1e6 +
    (c('sqsRequests') * prices.sqsPerMillionRequests) / 1e6 +
    ((c('bytesOut') + c('exportBytes')) * prices.dataOutPerGb) / 1024 ** 3;
  return Math.round(dollars * 1e6) / 1e6;
}

interface UsageFigures {
  requests: number;
  capacityUnits: { read: number; write: number };
  deliveries: number;
  searches: number;
  exportBytes: number;
  bytesOut: number;
  sqsRequests: number;
  gbSeconds: number;
  estimatedCostUsd: number;
}

interface OperationUsage {
  requests: number;
  byStatusClass: Record<StatusClass, number>;
  capacityUnits: { read: number; write: number };
}

export interface UsageReport {
  totals: UsageFigures;
  periods: (UsageFigures & { start: string; granularity: Granularity })[];
  operations: Record<string, OperationUsage>;
}

function figuresOf(counters: Counters, prices: UnitPrices): UsageFigures {
  const c = (name: string) => counters[name] ?? 0;
  return {
    requests: c('requests'),
    capacityUnits: { read: c('readUnits'), write: c('writeUnits') },
    deliveries: c('deliveries'),
    searches: c(`op:${SEARCH_OPERATION}:2xx`),
    exportBytes: c('exportBytes'),
    bytesOut: c('bytesOut'),
    sqsRequests: c('sqsRequests'),
    gbSeconds: roundUnits(c('gbSeconds')),
    estimatedCostUsd: estimatedCostUsd(counters, prices),
  };
}

/** A period's start as the report names it: the hour's or the day's first instant, in UTC. */
const startOf = (period: string) => (period.length === 13 ? `${period}:00:00Z` : `${period}T00:00:00Z`);

/**
 * The report of the periods read (each the counters of every shard's item of that hour or day): the
 * totals, each period in time order, and each operation's requests by status class and units.
 */
export function usageReport(
  periods: readonly { period: string; counters: Counters }[],
  granularity: Granularity,
  prices: UnitPrices,
): UsageReport {
  const byPeriod = new Map<string, Counters>();
  for (const { period, counters } of periods) byPeriod.set(period, addCounters(byPeriod.get(period) ?? {}, counters));
  const total: Counters = {};
  for (const counters of byPeriod.values()) addCounters(total, counters);
  const operations: Record<string, OperationUsage> = {};
  for (const [name, amount] of Object.entries(total)) {
    const [kind, operationId, field] = name.split(':');
    if (kind !== 'op' || !operationId || !field) continue;
    const op = operations[operationId] ?? {
      requests: 0,
      byStatusClass: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 },
      capacityUnits: { read: 0, write: 0 },
    };
    operations[operationId] = op;
    if ((STATUS_CLASSES as readonly string[]).includes(field)) {
      op.byStatusClass[field as StatusClass] += amount;
      op.requests += amount;
    } else if (field === 'readUnits') op.capacityUnits.read = amount;
    else if (field === 'writeUnits') op.capacityUnits.write = amount;
  }
  return {
    totals: figuresOf(total, prices),
    periods: [...byPeriod]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([period, counters]) => ({ start: startOf(period), granularity, ...figuresOf(counters, prices) })),
    operations: Object.fromEntries(Object.entries(operations).sort(([a], [b]) => a.localeCompare(b))),
  };
}
