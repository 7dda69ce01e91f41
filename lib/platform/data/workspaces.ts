/** Access patterns of the workspace item. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { toWorkspace, type Workspace } from './workspace-record.ts';

/** Read a workspace by slug; strongly consistent so suspension takes effect on the next request. */
export async function getWorkspace(slug: string): Promise<Workspace | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.workspace(slug), ConsistentRead: true }));
  return Item ? toWorkspace(Item) : null;
}

/**
 * Whether stream consumers may still write a workspace's derived data (search index, summaries): not
 * once `cxctl workspace delete` has marked it, nor after it is gone. Otherwise the deletion's own
 * stream records (an article removed, a response removed) would have them write it back.
 */
export async function workspaceAcceptsDerivedWrites(slug: string): Promise<boolean> {
  const workspace = await getWorkspace(slug);
  return workspace !== null && workspace.status !== 'deleting';
}

export type { Workspace } from './workspace-record.ts';
