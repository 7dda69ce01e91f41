/**
 * The sandbox denies a DynamoDB action a function does not declare, as its IAM role does in AWS, so
 * a route missing an action in `table` fails in the tests, not after a deploy.
 */
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { authenticationActionsOf } from '../../lib/platform/route.ts';
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

  it("allows authentication's own calls only on the workspace and key items", async () => {
    const authenticated = (send: () => Promise<unknown>) =>
      invocationStats.run(
        {
          dynamodbCalls: 0,
          dynamodbCommands: [],
          allowedDynamoDbActions: ['PutItem'],
          authenticationActions: authenticationActionsOf({}),
        },
        send,
      );
    const keyItem = { pk: { S: 'WS#acme' }, sk: { S: 'KEY#abc' } };
    const update = (key: typeof Key) => new UpdateItemCommand({ TableName: 't', Key: key, UpdateExpression: 'SET a = :a' });
    await expect(authenticated(() => client.send(update(keyItem)))).rejects.not.toMatchObject({ name: 'AccessDeniedException' });
    // In AWS the key check's UpdateItem is limited to the rate-limit attributes: a handler's own must be declared.
    await expect(authenticated(() => client.send(update(Key)))).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:UpdateItem'),
    });
    expect(authenticationActionsOf({ auth: 'none' })).toEqual([]);
  });
});
