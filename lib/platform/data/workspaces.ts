/** Access patterns of the workspace item. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, type TableKey } from './batch.ts';
import { dynamo, tableName } from './client.ts';
import { keys } from './keys.ts';
import { toWorkspace, type Workspace } from './workspace-record.ts';

/** Read a workspace by slug; strongly consistent so suspension takes effect on the next request. */
export async function getWorkspace(slug: string): Promise<Workspace | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.workspace(slug), ConsistentRead: true }));
  return Item ? toWorkspace(Item) : null;
}

/**
 * The workspace and, in the same round trip (one BatchGetItem, strongly consistent), one more item
 * of it: the remembered response of an Idempotency-Key (lib/platform/http/api-handler.ts), so a
 * create that replays costs no more calls than one that does not.
 */
export async function getWorkspaceWith(
  slug: string,
  other: TableKey,
): Promise<{ workspace: Workspace | null; other: Record<string, unknown> | undefined }> {
  const [workspace, item] = await getMany([keys.workspace(slug), other]);
  return { workspace: workspace ? toWorkspace(workspace) : null, other: item };
}

export type { Workspace } from './workspace-record.ts';
