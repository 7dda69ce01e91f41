/**
 * `cxctl usage`: a workspace's usage as GET /usage reports it (the same range rules, aggregation and
 * prices, lib/platform/tenants/), read from the table with the operator's client; or every
 * workspace's totals, sorted by cost, with a CSV for billing.
 */
import { USAGE_SHARDS, usagePartition, usagePeriodRange } from '../platform/tenants/keys.ts';
import type { UnitPrices } from '../platform/tenants/prices.ts';
import { type Counters, type Granularity, periodOfItem, type UsageReport, usageReport } from '../platform/tenants/usage.ts';
import { usageRange } from '../platform/tenants/usage-range.ts';
import { AdminError, type TableClient } from './table-client.ts';
import { queryPages } from './table-io.ts';

/** The same limits as GET /usage (lib/usage/schemas.ts): 7 days of hours, 92 days of days. */
const LIMITS = { maxHours: 7 * 24, maxDays: 92 };

export interface UsageAsked {
  from?: string;
  to?: string;
  granularity?: Granularity;
}

async function periodsOf(store: TableClient, workspace: string, granularity: Granularity, first: string, last: string) {
  const range = usagePeriodRange(granularity, first, last);
  const found: { period: string; counters: Counters }[] = [];
  await Promise.all(
    Array.from({ length: USAGE_SHARDS }, async (_, shard) => {
      const pages = queryPages(store, {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
        ExpressionAttributeValues: { ':pk': usagePartition(workspace, shard), ':first': range.from, ':last': range.to },
      });
      for await (const items of pages) found.push(...items.map(periodOfItem));
    }),
  );
  return found;
}

export type WorkspaceUsage = UsageReport & { workspace: string; from: string; to: string; granularity: Granularity };

export async function workspaceUsage(
  store: TableClient,
  workspace: string,
  asked: UsageAsked,
  prices: UnitPrices,
): Promise<WorkspaceUsage> {
  const range = usageRange(asked, Date.now(), LIMITS);
  if ('problem' in range) throw new AdminError(`--${range.field} ${range.problem.replaceAll('`to`', '--to')}`);
  const periods = await periodsOf(store, workspace, range.granularity, range.first, range.last);
  return { workspace, from: range.from, to: range.to, granularity: range.granularity, ...usageReport(periods, range.granularity, prices) };
}

/** Every workspace's usage over the range, the costliest first. */
export async function everyWorkspaceUsage(
  store: TableClient,
  workspaces: readonly string[],
  asked: UsageAsked,
  prices: UnitPrices,
): Promise<WorkspaceUsage[]> {
  const reports: WorkspaceUsage[] = [];
  // A few at a time: each is USAGE_SHARDS Queries.
  for (let i = 0; i < workspaces.length; i += 8) {
    reports.push(...(await Promise.all(workspaces.slice(i, i + 8).map((workspace) => workspaceUsage(store, workspace, asked, prices)))));
  }
  return reports.sort((a, b) => b.totals.estimatedCostUsd - a.totals.estimatedCostUsd || a.workspace.localeCompare(b.workspace));
}

const CSV_COLUMNS = [
  'workspace',
  'period',
  'requests',
  'readUnits',
  'writeUnits',
  'deliveries',
  'searches',
  'exportBytes',
  'estimatedCostUsd',
];

/**
 * The reports as CSV, one row per workspace and period (and its total), for a billing system: every
 * cell a number or a slug (lower-case letters, digits, hyphens), so no cell can be read as a formula.
 */
export function usageCsv(reports: readonly WorkspaceUsage[]): string {
  const rows = [CSV_COLUMNS.join(',')];
  for (const report of reports) {
    const row = (period: string, f: UsageReport['totals']) =>
      [
        report.workspace,
        period,
        f.requests,
        f.capacityUnits.read,
        f.capacityUnits.write,
        f.deliveries,
        f.searches,
        f.exportBytes,
        f.estimatedCostUsd,
      ].join(',');
    for (const period of report.periods) rows.push(row(period.start, period));
    rows.push(row('total', report.totals));
  }
  return `${rows.join('\r\n')}\r\n`;
}
