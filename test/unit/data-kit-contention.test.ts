/**
 * A transaction that keeps losing races (TransactionConflict on every attempt) is what DynamoDB
 * Local cannot be made to produce on demand, so a mocked client stands in here, for that answer only.
 * The kit retries it, then throws the area's own error when the store names one (the knowledge bank's
 * 409 `tree_changed`, which a client retries) instead of the SDK's, which would answer 502.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo, tableName } from '../../lib/platform/data/client.ts';
import { transact } from '../../lib/platform/data/transact.ts';
import { ConflictError } from '../../lib/platform/errors.ts';

const db = mockClient(dynamo);
afterEach(() => db.reset());

const conflict = () =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
  });
const writes = {
  category: { Put: { TableName: tableName, Item: { pk: 'WS#acme', sk: 'KBCAT#1' } } },
  parent: { ConditionCheck: { TableName: tableName, Key: { pk: 'WS#acme', sk: 'KBCAT#0' }, ConditionExpression: 'attribute_exists(pk)' } },
};

describe('transact under contention', () => {
  it('retries lost races and succeeds when one attempt wins', async () => {
    db.on(TransactWriteCommand).rejectsOnce(conflict()).resolvesOnce({});
    await transact(writes, { attempts: 3 });
    expect(db.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('throws the area’s error once every attempt lost, when the store names one', async () => {
    db.on(TransactWriteCommand).rejects(conflict());
    const treeChanged = () => new ConflictError('tree_changed', 'retry it');
    await expect(transact(writes, { attempts: 2, contended: treeChanged })).rejects.toMatchObject({ status: 409, code: 'tree_changed' });
    expect(db.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });

  it('throws the SDK’s error without one', async () => {
    db.on(TransactWriteCommand).rejects(conflict());
    await expect(transact(writes, { attempts: 2 })).rejects.toBeInstanceOf(TransactionCanceledException);
  });
});
