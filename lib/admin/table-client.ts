/**
 * The operator tools' table client (cxctl, the sandbox's first-start seeding, test fixtures): a
 * DynamoDB document client and a table name, passed explicitly because these tools pick their
 * target at run time (the sandbox, LocalStack or a deployed table) rather than from TABLE_NAME.
 */
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { transactionCancellationReasons } from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';

export interface TableClient {
  db: DynamoDBDocumentClient;
  table: string;
}

export function createTableClient(table: string, clientConfig: DynamoDBClientConfig = {}): TableClient {
  const db = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return { db, table };
}

/** A store on DynamoDB Local (or LocalStack): fixed dummy credentials, any region. */
export function createLocalTableClient(table: string, endpoint: string): TableClient {
  return createTableClient(table, {
    endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
}

/** Operator mistakes: cxctl prints the message and exits non-zero. */
export class AdminError extends Error {
  override name = 'AdminError';
}

/** One write of an operator's transaction. */
export type AdminWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** The check that the workspace exists, first in a transaction that writes into it. */
export function workspaceExists(store: TableClient, workspace: string): AdminWrite {
  return { ConditionCheck: { TableName: store.table, Key: keys.workspace(workspace), ConditionExpression: 'attribute_exists(pk)' } };
}

/**
 * One transaction on the operator's client. When the condition of its first write failed (no such
 * workspace, a slug already taken), the operator is told `refusal`; any other failure is thrown as is.
 */
export async function transactOrRefuse(store: TableClient, writes: AdminWrite[], refusal: string): Promise<void> {
  try {
    await store.db.send(new TransactWriteCommand({ TransactItems: writes }));
  } catch (error) {
    if (transactionCancellationReasons(error)?.[0] === 'ConditionalCheckFailed') throw new AdminError(refusal);
    throw error;
  }
}
