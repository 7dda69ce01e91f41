/**
 * What several knowledge-bank access patterns share beyond the platform's data kit
 * (lib/platform/data/): every item of the workspace whose sort key starts with a prefix (one Query,
 * strongly consistent, every page). Every key is built by the area's entities (entities.ts) under the workspace's
 * partition, so another workspace's id is simply not found.
 */
import type { TableKey } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';

/** Every item under `prefix`, or only `attributes` of each (plain names: none is a reserved word). */
export function queryPrefix(workspace: string, prefix: string, attributes?: readonly string[]): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': prefix },
    ...(attributes ? { ProjectionExpression: attributes.join(', ') } : {}),
    ConsistentRead: true,
  });
}

/** The keys of every item under `prefix` (to delete them, or to read ids out of them). */
export async function queryKeys(workspace: string, prefix: string): Promise<TableKey[]> {
  return (await queryPrefix(workspace, prefix, ['pk', 'sk'])) as TableKey[];
}
