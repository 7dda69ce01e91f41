/**
 * Tenants (docs/operating.md, "Tenants"): `cxctl workspace set-limit` (a workspace's request budget
 * across all its keys) and `cxctl usage` (what a workspace, or every workspace, used and cost).
 */
import { AdminError } from '../../lib/admin/table-client.ts';
import { everyWorkspaceUsage, usageCsv, type WorkspaceUsage, workspaceUsage } from '../../lib/admin/usage.ts';
import { listWorkspaces, setRequestBudget } from '../../lib/admin/workspaces.ts';
import { config } from '../../lib/platform/config.ts';
import type { Workspace } from '../../lib/platform/data/workspace-record.ts';
import { unitPrices } from '../../lib/platform/tenants/prices.ts';
import { type CommandContext, stringOption } from './context.ts';

function wholeNumber(context: CommandContext, name: string): number | undefined {
  const text = stringOption(context, name);
  if (text === undefined) return undefined;
  if (!/^\d{1,9}$/.test(text)) throw new AdminError(`Invalid --${name} "${text}": a whole number`);
  return Number(text);
}

/** `50/s, bursts of 100`, or the plan's default. */
export function limitText(workspace: Workspace): string {
  const budget = workspace.requestBudget;
  return budget ? `${budget.requestsPerSecond}/s, bursts of ${budget.burst}` : 'the plan default';
}

export async function setLimitCommand(context: CommandContext, slug: string): Promise<void> {
  const requestsPerSecond = wholeNumber(context, 'requests-per-second');
  const burst = wholeNumber(context, 'burst');
  if (context.options.default) {
    if (requestsPerSecond !== undefined || burst !== undefined)
      throw new AdminError('Give --default, or --requests-per-second [--burst], not both');
    const ws = await setRequestBudget(context.target.store, slug, null);
    return context.print({ slug: ws.slug, requestBudget: null }, `Workspace ${ws.slug}: requests limited by the plan default`);
  }
  if (requestsPerSecond === undefined) throw new AdminError('Give --requests-per-second N [--burst M], or --default');
  const ws = await setRequestBudget(context.target.store, slug, { requestsPerSecond, burst });
  context.print(
    { slug: ws.slug, requestBudget: ws.requestBudget },
    `Workspace ${ws.slug}: at most ${limitText(ws)} across all its keys, from its next request`,
  );
}

const number = (n: number) => n.toLocaleString('en', { maximumFractionDigits: 2 });
const dollars = (n: number) => `$${n.toFixed(n < 1 ? 6 : 2)}`;

function usageText(report: WorkspaceUsage): string {
  const t = report.totals;
  const lines = [
    `${report.workspace}, ${report.from} to ${report.to}: ${number(t.requests)} requests, ` +
      `${number(t.capacityUnits.read)} read and ${number(t.capacityUnits.write)} write units, ${number(t.deliveries)} deliveries, ` +
      `${number(t.searches)} searches, ${number(t.exportBytes)} export bytes: ${dollars(t.estimatedCostUsd)}`,
  ];
  for (const [operationId, op] of Object.entries(report.operations)) {
    const classes = Object.entries(op.byStatusClass)
      .filter(([, n]) => n > 0)
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    lines.push(`  ${operationId.padEnd(34)} ${String(op.requests).padStart(8)}  (${classes})`);
  }
  return lines.join('\n');
}

export async function usageCommand(context: CommandContext, slug: string | undefined): Promise<void> {
  const granularity = stringOption(context, 'granularity');
  if (granularity !== undefined && granularity !== 'hour' && granularity !== 'day') {
    throw new AdminError(`Invalid --granularity "${granularity}": hour or day`);
  }
  const asked = {
    from: stringOption(context, 'from'),
    to: stringOption(context, 'to'),
    granularity: granularity as 'hour' | 'day' | undefined,
  };
  const prices = unitPrices(config.usagePrices());
  const { store } = context.target;
  if (context.options.all && slug) throw new AdminError('Give a workspace or --all, not both');
  const reports = context.options.all
    ? await everyWorkspaceUsage(
        store,
        (await listWorkspaces(store)).map((ws) => ws.slug),
        asked,
        prices,
      )
    : [await workspaceUsage(store, slugOrError(slug), asked, prices)];
  if (context.options.csv) {
    process.stdout.write(usageCsv(reports));
    return;
  }
  if (!context.options.all) return context.print(reports[0], usageText(reports[0]!));
  context.print(
    reports,
    reports.length === 0
      ? 'No workspaces'
      : reports
          .map(
            (r) =>
              `${r.workspace.padEnd(24)} ${dollars(r.totals.estimatedCostUsd).padStart(12)}  ${number(r.totals.requests).padStart(12)} requests`,
          )
          .join('\n'),
  );
}

function slugOrError(slug: string | undefined): string {
  if (!slug) throw new AdminError('Give a workspace (cxctl usage <slug>), or --all');
  return slug;
}
