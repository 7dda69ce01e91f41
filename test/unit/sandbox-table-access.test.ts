/**
 * The sandbox evaluates each DynamoDB request against the IAM policy of the function sending it,
 * with the request context AWS documents (action, table, dynamodb:Attributes, ReturnValues…), so a
 * request the deployed policy denies fails in the tests, not after a deploy. The synthesized
 * policies themselves are tested in test/cdk/iam-policies.test.ts.
 */
import { DeleteItemCommand, DynamoDBClient, GetItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { FunctionPolicy } from '../../local/iam/function-policies.ts';
import { countDynamoDbCalls, invocationStats } from '../../local/instrumentation.ts';

// Nothing listens here: an allowed call fails on the network, a denied one before it.
const client = new DynamoDBClient({
  endpoint: 'http://127.0.0.1:9',
  region: 'us-east-1',
  credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
  maxAttempts: 1,
});
const account = { region: 'us-east-1', accountId: '000000000000', tableName: 't' };
const table = 'arn:aws:dynamodb:us-east-1:000000000000:table/t';
const policy = (statements: FunctionPolicy['statements']): FunctionPolicy => ({
  functionPath: 'Test/fn',
  roleArn: 'arn:aws:iam::000000000000:role/fn',
  statements,
});
const policies = new Map<string, FunctionPolicy>([
  ['functions/reads.ts', policy([{ Effect: 'Allow', Action: ['dynamodb:GetItem', 'dynamodb:PutItem'], Resource: table }])],
  [
    'functions/counts.ts',
    policy([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: table,
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:Attributes': ['pk', 'sk', 'rlWindow', 'rlCount'] },
          StringEqualsIfExists: { 'dynamodb:ReturnValues': ['NONE', 'UPDATED_NEW'] },
        },
      },
    ]),
  ],
]);
countDynamoDbCalls(client, { policies, account });

const Key = { pk: { S: 'WS#acme' }, sk: { S: 'KEY#1' } };
const asFunction = (handler: string, send: () => Promise<unknown>) =>
  invocationStats.run({ dynamodbCalls: 0, dynamodbCommands: [], handler }, send);
const denied = { name: 'AccessDeniedException', message: expect.stringContaining('is not authorized to perform') };

describe('sandbox IAM evaluation', () => {
  it('denies an action the policy does not grant with AccessDeniedException, naming it', async () => {
    const request = asFunction('functions/reads.ts', () => client.send(new DeleteItemCommand({ TableName: 't', Key })));
    await expect(request).rejects.toMatchObject({ ...denied, message: expect.stringContaining('dynamodb:DeleteItem') });
  });

  it('checks every part of a transaction as its own action', async () => {
    const request = asFunction('functions/reads.ts', () =>
      client.send(
        new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: 't', Item: Key } }, { Delete: { TableName: 't', Key } }] }),
      ),
    );
    await expect(request).rejects.toMatchObject({ ...denied, message: expect.stringContaining('dynamodb:DeleteItem') });
  });

  it('lets a granted request through, and only on the granted table', async () => {
    await expect(
      asFunction('functions/reads.ts', () => client.send(new GetItemCommand({ TableName: 't', Key }))),
    ).rejects.not.toMatchObject({
      name: 'AccessDeniedException',
    });
    await expect(
      asFunction('functions/reads.ts', () => client.send(new GetItemCommand({ TableName: 'other', Key }))),
    ).rejects.toMatchObject(denied);
  });

  it('counts the attributes a condition names, so an attribute-limited grant denies a condition on secretHash', async () => {
    const update = (extra: Partial<ConstructorParameters<typeof UpdateItemCommand>[0]>) =>
      asFunction('functions/counts.ts', () =>
        client.send(
          new UpdateItemCommand({
            TableName: 't',
            Key,
            UpdateExpression: 'SET rlCount = rlCount + :one',
            ExpressionAttributeValues: { ':one': { N: '1' }, ':w': { N: '1' }, ':h': { S: 'x' } },
            ...extra,
          }),
        ),
      );
    await expect(update({ ConditionExpression: 'rlWindow = :w', ReturnValues: 'UPDATED_NEW' })).rejects.not.toMatchObject({
      name: 'AccessDeniedException',
    });
    await expect(update({ ConditionExpression: 'rlWindow = :w AND secretHash = :h' })).rejects.toMatchObject(denied);
    // A placeholder is the attribute it stands for.
    await expect(update({ ConditionExpression: '#s = :h', ExpressionAttributeNames: { '#s': 'secretHash' } })).rejects.toMatchObject(
      denied,
    );
    await expect(update({ ReturnValues: 'ALL_NEW' })).rejects.toMatchObject(denied);
  });

  it('denies every request of a function the stack does not deploy', async () => {
    await expect(asFunction('functions/unknown.ts', () => client.send(new GetItemCommand({ TableName: 't', Key })))).rejects.toMatchObject(
      denied,
    );
  });
});
