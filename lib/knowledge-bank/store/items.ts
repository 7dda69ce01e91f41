import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  type BatchGetCommandOutput,
  BatchWriteCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { retryTransactionConflicts, transactionCancellationReasons } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type Item = Record<string, unknown>;

export async function transact(items: TransactItems): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })));
}

/** The indexes of the items whose condition failed in a cancelled transaction; null when it was not cancelled. */
export function failedAt(error: unknown): number[] | null {
  const reasons = transactionCancellationReasons(error);
  if (!reasons) return null;
  return reasons.flatMap((reason, index) => (reason === 'ConditionalCheckFailed' ? [index] : []));
}

export function cancelledItem(error: unknown, index: number): Record<string, AttributeValue> | undefined {
  return (error as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] }).CancellationReasons?.[index]?.Item;
}

/** BatchGet by key (strongly consistent), following UnprocessedKeys; items by sort key. */
export async function getMany(keyList: Array<{ pk: string; sk: string }>): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (let start = 0; start < keyList.length; start += 100) {
    let pending: Array<Record<string, unknown>> | undefined = keyList.slice(start, start + 100);
    while (pending && pending.length > 0) {
      const result: BatchGetCommandOutput = await dynamo.send(
        new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
      );
      for (const item of result.Responses?.[tableName] ?? []) found.set(item.sk as string, item);
      pending = result.UnprocessedKeys?.[tableName]?.Keys;
    }
  }
  return found;
}

export async function queryKeys(workspace: string, prefix: string): Promise<Array<{ pk: string; sk: string }>> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': prefix },
    ProjectionExpression: 'pk, sk',
    ConsistentRead: true,
  });
  return items as Array<{ pk: string; sk: string }>;
}

export async function deleteAll(keyList: Array<{ pk: string; sk: string }>): Promise<void> {
  for (let start = 0; start < keyList.length; start += 25) {
    let pending: Array<Record<string, Record<string, unknown>>> | undefined = keyList
      .slice(start, start + 25)
      .map((key) => ({ DeleteRequest: { Key: key } }));
    while (pending && pending.length > 0) {
      const result = await dynamo.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
      pending = result.UnprocessedItems?.[tableName] as typeof pending;
    }
  }
}
