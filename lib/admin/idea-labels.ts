/**
 * `cxctl labels add`: adds idea statuses and modules to the ones a workspace has, keeping every label
 * it has (and their order). `labels set` replaces them; a walkthrough or the demo, which must not
 * undo an operator's labels, adds.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';
import { AdminError, type Store } from './store.ts';
import { findWorkspace } from './workspaces.ts';

interface IdeaLabels {
  statuses: string[];
  modules: string[];
}

/** Two operators adding at once: each retry reads again, and one of them wins each round. */
const ATTEMPTS = 5;

/**
 * Adds the labels the workspace lacks, after its own. One read and, when something is missing, one
 * write on condition that the labels are still the ones read, so a concurrent change is never lost
 * (equality holds for whole lists: "EQ is supported for all data types, including lists and maps",
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Condition.html).
 */
export async function addIdeaLabels(
  store: Store,
  slug: string,
  add: Partial<IdeaLabels>,
): Promise<{ labels: IdeaLabels; added: IdeaLabels }> {
  for (let attempt = 1; ; attempt++) {
    const workspace = await findWorkspace(store, slug);
    if (!workspace) throw new AdminError(`Workspace "${slug}" does not exist`);
    const have = workspace.ideaLabels;
    const added = {
      statuses: (add.statuses ?? []).filter((label) => !have.statuses.includes(label)),
      modules: (add.modules ?? []).filter((label) => !have.modules.includes(label)),
    };
    const labels = { statuses: [...have.statuses, ...added.statuses], modules: [...have.modules, ...added.modules] };
    if (added.statuses.length === 0 && added.modules.length === 0) return { labels, added };
    try {
      await store.db.send(
        new UpdateCommand({
          TableName: store.table,
          Key: keys.workspace(slug),
          UpdateExpression: 'SET ideaLabels.statuses = :statuses, ideaLabels.modules = :modules, updatedAt = :now',
          ConditionExpression: 'ideaLabels.statuses = :statusesRead AND ideaLabels.modules = :modulesRead',
          ExpressionAttributeValues: {
            ':statuses': labels.statuses,
            ':modules': labels.modules,
            ':statusesRead': have.statuses,
            ':modulesRead': have.modules,
            ':now': new Date().toISOString(),
          },
        }),
      );
      return { labels, added };
    } catch (error) {
      if (!isConditionFailure(error) || attempt === ATTEMPTS) throw error;
    }
  }
}
