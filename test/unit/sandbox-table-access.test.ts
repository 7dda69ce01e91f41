/**
 * The sandbox denies a DynamoDB action a function does not declare, as its IAM role does in AWS, so
 * a route missing an action in `table` fails in the tests, not after a deploy.
 */
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { tableActionsOf } from '../../lib/platform/route.ts';
import { countDynamoDbCalls, type InvocationStats, invocationStats } from '../../local/instrumentation.ts';

// Nothing listens here: an allowed call fails on the network, a denied one before it.
const client = new DynamoDBClient({
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  maxAttempts: 1,
});
countDynamoDbCalls(client);

const Key = { pk: { S: 'WS#acme' }, sk: { S: 'IDEA#1' } };
const asFunctionDeclaring = (allowed: readonly string[], send: () => Promise<unknown>) => {
  const stats: InvocationStats = { dynamodbCalls: 0, dynamodbCommands: [], allowedDynamoDbActions: allowed };
  return invocationStats.run(stats, send);
};

describe('sandbox table access', () => {
  it('denies an undeclared action with AccessDeniedException, naming it', async () => {
    const denied = asFunctionDeclaring(['GetItem', 'PutItem'], () => client.send(new DeleteItemCommand({ TableName: 't', Key })));
    await expect(denied).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('dynamodb:DeleteItem') });
  });

  it('checks every part of a transaction', async () => {
    const denied = asFunctionDeclaring(['PutItem', 'UpdateItem'], () =>
      client.send(
        new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: 't', Item: Key } }, { Delete: { TableName: 't', Key } }] }),
      ),
    );
    await expect(denied).rejects.toMatchObject({ name: 'AccessDeniedException', message: expect.stringContaining('dynamodb:DeleteItem') });
  });

  it('lets a declared action through', async () => {
    const allowed = asFunctionDeclaring(['GetItem'], () => client.send(new GetItemCommand({ TableName: 't', Key })));
    await expect(allowed).rejects.not.toMatchObject({ name: 'AccessDeniedException' });
  });

  it("gives an authenticated route the key check's GetItem and UpdateItem besides its own actions", () => {
    expect(tableActionsOf({ table: ['PutItem'] }).sort()).toEqual(['GetItem', 'PutItem', 'UpdateItem']);
    expect(tableActionsOf({ auth: 'none' })).toEqual([]);
  });
});
