/** `cxctl workspace export` and `cxctl workspace delete`: a tenant's data handed over, then removed (lib/admin/). */

import { AdminError } from '../../lib/admin/table-client.ts';
import { checkedBucketsOf, s3ClientOf } from '../../lib/admin/target.ts';
import { deleteWorkspace } from '../../lib/admin/workspace-delete.ts';
import { exportWorkspace } from '../../lib/admin/workspace-export.ts';
import { type CommandContext, stringOption } from './context.ts';

const list = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ') || 'none';

export async function exportWorkspaceCommand(context: CommandContext, slug: string): Promise<void> {
  const file = stringOption(context, 'out');
  if (!file) throw new AdminError('Give the file to write with --out FILE (NDJSON, docs/operating.md describes it)');
  const summary = await exportWorkspace(context.target.store, slug, file, (records) => context.log(`  ${records} record(s) written…`));
  context.print(
    summary,
    `Exported ${summary.records} record(s) of ${slug} to ${file} (${summary.bytes} bytes): ${list(summary.byType)}\n` +
      `Left out, rebuilt from those records or gone within a day: ${list(summary.leftOut)}`,
  );
}

export async function deleteWorkspaceCommand(context: CommandContext, slug: string): Promise<void> {
  const settle = stringOption(context, 'settle') ?? '5';
  if (!/^\d+$/.test(settle)) throw new AdminError(`Invalid --settle "${settle}": whole seconds`);
  const buckets = await checkedBucketsOf(context.target, 'workspace delete');
  const s3 = await s3ClientOf(context.target);
  try {
    const report = await deleteWorkspace(context.target.store, slug, {
      confirm: stringOption(context, 'confirm'),
      s3,
      buckets,
      settleSeconds: Number(settle),
      log: context.log,
    });
    const items = Object.values(report.items).reduce((a, b) => a + b, 0);
    context.print(
      report,
      `Deleted workspace ${slug}${report.resumed ? ' (going on from an interrupted run)' : ''}: ${items} item(s) (${list(report.items)}), ` +
        `${report.objects.searchIndex} search index object(s), ${report.objects.surveyExports} export file(s); ` +
        `${report.webhooksStopped} webhook(s) stopped, ${report.deliveriesDropped} queued delivery(ies) dropped.\n` +
        `The slug ${slug} can be created again.`,
    );
  } finally {
    s3.destroy();
  }
}
