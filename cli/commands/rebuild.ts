/**
 * `cxctl rebuild search` and `cxctl rebuild summaries`: derived data made again from the table
 * (lib/admin/rebuild-search.ts, lib/admin/rebuild-summaries.ts), on one workspace or, with --all,
 * on every workspace (found by `workspace list`'s scan), resumably.
 */
import { AdminError } from '../../lib/admin/table-client.ts';
import { checkedBucketsOf } from '../../lib/admin/target.ts';
import { findWorkspace, listWorkspaces } from '../../lib/admin/workspaces.ts';
import { type CommandContext, stringOption, useAreaEnvironment } from './context.ts';

async function workspacesOf(context: CommandContext): Promise<string[]> {
  const workspace = stringOption(context, 'workspace');
  if (workspace && context.options.all) throw new AdminError('Give --workspace <slug> or --all, not both');
  if (workspace) {
    if (!(await findWorkspace(context.target.store, workspace))) throw new AdminError(`Workspace "${workspace}" does not exist`);
    return [workspace];
  }
  if (!context.options.all) throw new AdminError('Give --workspace <slug>, or --all for every workspace');
  return (await listWorkspaces(context.target.store)).filter((ws) => ws.status !== 'deleting').map((ws) => ws.slug);
}

export async function rebuildSearchCommand(context: CommandContext): Promise<void> {
  await checkedBucketsOf(context.target, 'rebuild search');
  const workspaces = await workspacesOf(context);
  useAreaEnvironment(context.target);
  const { describeSearchRebuild, rebuildAllSearch, rebuildWorkspaceSearch } = await import('../../lib/admin/rebuild-search.ts');
  if (!context.options.all) {
    const rebuilt = await rebuildWorkspaceSearch(workspaces[0] as string);
    return context.print(rebuilt, describeSearchRebuild(rebuilt));
  }
  const rebuilt = await rebuildAllSearch(context.target.store, workspaces, { restart: context.options.restart === true, log: context.log });
  context.print(
    rebuilt,
    `Search indexes rebuilt: ${rebuilt.filter((r) => r.result === 'rebuilt').length} of ${rebuilt.length} workspace(s)`,
  );
}

export async function rebuildSummariesCommand(context: CommandContext): Promise<void> {
  const survey = stringOption(context, 'survey');
  if (survey && context.options.all) throw new AdminError('--survey names a survey of one workspace: give --workspace with it, not --all');
  const workspaces = await workspacesOf(context);
  useAreaEnvironment(context.target);
  const { describeSummaryRebuild, rebuildAllSummaries, rebuildSummaries } = await import('../../lib/admin/rebuild-summaries.ts');
  const restart = context.options.restart === true;
  if (!context.options.all) {
    const workspace = workspaces[0] as string;
    const surveys = await rebuildSummaries(context.target.store, workspace, {
      surveyIds: survey ? [survey] : undefined,
      restart,
      log: context.log,
    });
    return context.print(
      surveys,
      surveys.length === 0 ? `${workspace} has no surveys` : surveys.map((s) => describeSummaryRebuild(workspace, s)).join('\n'),
    );
  }
  const done = await rebuildAllSummaries(context.target.store, workspaces, { restart, log: context.log });
  context.print(done, `Summaries rebuilt: ${done.reduce((n, w) => n + w.surveys.length, 0)} survey(s) in ${done.length} workspace(s)`);
}
