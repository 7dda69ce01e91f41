/**
 * `cxctl labels add`: adds idea statuses and modules to the ones a workspace has, keeping every label
 * it has (and their order). `labels set` replaces them; a walkthrough or the demo, which must not
 * undo an operator's labels, adds.
 */
import { AdminError, type TableClient } from './table-client.ts';
import { changeIdeaLabels, findWorkspace } from './workspaces.ts';

interface IdeaLabels {
  statuses: string[];
  modules: string[];
}

function missingFrom(have: IdeaLabels, add: Partial<IdeaLabels>): IdeaLabels {
  return {
    statuses: (add.statuses ?? []).filter((label) => !have.statuses.includes(label)),
    modules: (add.modules ?? []).filter((label) => !have.modules.includes(label)),
  };
}

/**
 * Adds the labels the workspace lacks, after its own. One read and, when something is missing, one
 * change of the workspace and the copies authentication reads (changeIdeaLabels: conditional on the
 * revision read, so a concurrent change is never lost; the loser adds to what the winner wrote).
 */
export async function addIdeaLabels(
  store: TableClient,
  slug: string,
  add: Partial<IdeaLabels>,
): Promise<{ labels: IdeaLabels; added: IdeaLabels }> {
  const workspace = await findWorkspace(store, slug);
  if (!workspace) throw new AdminError(`Workspace "${slug}" does not exist`);
  let added = missingFrom(workspace.ideaLabels, add);
  if (added.statuses.length === 0 && added.modules.length === 0) return { labels: workspace.ideaLabels, added };
  const changed = await changeIdeaLabels(store, slug, (have) => {
    added = missingFrom(have, add);
    return { statuses: [...have.statuses, ...added.statuses], modules: [...have.modules, ...added.modules] };
  });
  return { labels: changed.ideaLabels, added };
}
