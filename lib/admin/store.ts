/**
 * Where the operator tools (cxctl, the sandbox's first-start seeding, test fixtures) write: a
 * DynamoDB document client and a table name, passed explicitly because these tools pick their
 * target at run time (the sandbox, LocalStack or a deployed table) rather than from TABLE_NAME.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export interface Store {
  db: DynamoDBDocumentClient;
  table: string;
}

export function createStore(table: string, clientConfig: DynamoDBClientConfig = {}): Store {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { db, table };
}

/** A store on DynamoDB Local (or LocalStack): fixed dummy credentials, any region. */
export function createLocalStore(table: string, endpoint: string): Store {
  return createStore(table, {
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** Operator mistakes: cxctl prints the message and exits non-zero. */
export class AdminError extends Error {
  override name = 'AdminError';
}
