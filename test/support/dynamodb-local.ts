/**
 * A DynamoDB Local of its own for a unit test file that needs the real thing (the data kit's
 * conditions, transactions and batches), with the table created exactly as the stack defines it.
 * The handlers' client reads its endpoint from AWS_ENDPOINT_URL_DYNAMODB when first imported, so
 * a test imports the modules under test only after `startTableForUnitTests` resolved.
 */
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DynamoDBClient,
  QueryCommand,
  TransactWriteItemsCommand,
} from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../local/dynamodb-local.ts';
import { ensureTable } from '../../local/table.ts';
import { freePort } from '../../local/wait.ts';

export async function startTableForUnitTests(): Promise<{ stop(): Promise<void> }> {
  const dynamodb = await startDynamoDbLocal({ port: await freePort() });
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  });
  const admin = new DynamoDBClient({ endpoint: dynamodb.endpoint });
  const tableName = process.env.TABLE_NAME ?? 'unit-test-table';
  await ensureTable(admin, tableName);
  await warmUp(admin, tableName);
  admin.destroy();
  return dynamodb;
}

/**
 * A fresh JVM answers its first batches slowly (the JIT has not run yet); on a busy machine that
 * can pass the handlers' client's 3 s request timeout (lib/platform/data/client.ts). A few rounds of
 * each kind of call, on a client without that timeout, before any test measures anything.
 */
async function warmUp(client: DynamoDBClient, tableName: string): Promise<void> {
  const key = (i: number) => ({ pk: { S: 'WARMUP' }, sk: { S: `W#${i}` } });
  for (let round = 0; round < 3; round++) {
    const items = Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { ...key(i), n: { N: String(round) } } } }));
    await client.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: items } }));
    await client.send(
      new BatchGetItemCommand({ RequestItems: { [tableName]: { Keys: items.map((_, i) => key(i)), ConsistentRead: true } } }),
    );
    await client.send(
      new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'WARMUP' } } }),
    );
    await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: tableName, Item: key(100 + round) } }] }));
  }
}
