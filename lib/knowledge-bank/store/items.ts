/**
 * What several knowledge-bank access patterns share beyond the platform's data kit
 * (lib/platform/data/): the keys of a range, read without their items. Every key is built by
 * `keys.kb*` under the workspace's partition, so another workspace's id is simply not found.
 */
import type { TableKey } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';

/** The keys of every item whose sort key starts with `prefix` (to delete them, or to read ids out of them). */
export async function queryKeys(workspace: string, prefix: string): Promise<TableKey[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': prefix },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  return items as TableKey[];
}
