/**
 * A DynamoDB Local of its own for a unit test file that needs the real thing (the data kit's
 * conditions, transactions and batches), with the table created exactly as the stack defines it.
 * The handlers' client reads its endpoint from AWS_ENDPOINT_URL_DYNAMODB when first imported, so
 * a test imports the modules under test only after `startTableForUnitTests` resolved.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
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
  await ensureTable(admin, process.env.TABLE_NAME ?? 'unit-test-table');
  admin.destroy();
  return dynamodb;
}
