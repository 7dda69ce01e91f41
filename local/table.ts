/** Creates the single table in DynamoDB Local exactly as the CDK stack defines it (lib/platform/data/table.ts). */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../lib/admin/table-layout.ts';
import { TABLE } from '../lib/platform/data/table.ts';

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<{ created: boolean; streamArn?: string }> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return { created: false, streamArn: Table?.LatestStreamArn };
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { TableDescription } = await client.send(new CreateTableCommand(createTableInput(tableName)));
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
  return { created: true, streamArn: TableDescription?.LatestStreamArn };
}
