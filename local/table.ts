/** Creates the single table in DynamoDB Local exactly as the CDK stack defines it (lib/platform/data/table.ts). */
import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { TABLE } from '../lib/platform/data/table.ts';

export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<{ created: boolean; streamArn?: string }> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return { created: false, streamArn: Table?.LatestStreamArn };
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const { TableDescription } = await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: TABLE.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE.sortKey, AttributeType: 'S' },
        { AttributeName: TABLE.gsi1.partitionKey, AttributeType: 'S' },
        { AttributeName: TABLE.gsi1.sortKey, AttributeType: 'S' },
      ],
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: [
        {
          IndexName: TABLE.gsi1.name,
          KeySchema: [
            { AttributeName: TABLE.gsi1.partitionKey, KeyType: 'HASH' },
            { AttributeName: TABLE.gsi1.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...TABLE.gsi1.nonKeyAttributes] },
        },
      ],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
    }),
  );
  return { created: true, streamArn: TableDescription?.LatestStreamArn };
}
