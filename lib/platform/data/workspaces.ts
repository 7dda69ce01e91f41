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

export type { Workspace } from './workspace-record.ts';
