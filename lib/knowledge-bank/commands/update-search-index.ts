/**
 * One workspace's search index brought up to date with the articles a batch of the table stream
 * changed. Repeating it is harmless: the update reads the articles' current state, whatever the
 * records said.
 */
import { workspaceAcceptsDerivedWrites } from '../../platform/data/workspaces.ts';
import { logger } from '../../platform/logger.ts';
import { updateSearchIndex } from '../search/builder.ts';

export async function updateWorkspaceSearchIndex(workspace: string, articleIds: ReadonlySet<string>): Promise<void> {
  // A workspace `cxctl workspace delete` has marked, or that is gone: its articles' removals must not write its index back.
  if (!(await workspaceAcceptsDerivedWrites(workspace))) return;
  const result = await updateSearchIndex(workspace, articleIds);
  logger.info('search index updated', { ...result });
}
