/**
 * The CreateTable request of the single table as the CDK stack defines it (lib/platform/data/table.ts):
 * the sandbox creates its table with it (`cxctl backup restore` makes its copy like the table restored,
 * lib/admin/restore.ts).
 */
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { GSI1_NON_KEY_ATTRIBUTES } from '../entities.ts';
import { TABLE } from '../platform/data/table.ts';

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    // As the stack's: DeleteTable is refused until someone turns this off on purpose.
    DeletionProtectionEnabled: true,
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
        Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...GSI1_NON_KEY_ATTRIBUTES] },
      },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' },
  };
}
