/**
 * Transaction conflicts on the idea counter. DynamoDB Local serialises transactions, so it never
 * produces the TransactionConflict that concurrent creations meet in AWS; this is the one place a
 * mocked client stands in for the real one.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteIdea, writeNewIdea } from '../../lib/ideas/store/ideas.ts';
import { dynamo } from '../../lib/platform/data/client.ts';
import { ConflictError, NotFoundError, VersionConflictError } from '../../lib/platform/errors.ts';

const db = mockClient(dynamo);
afterEach(() => db.reset());

function cancelled(...codes: { Code: string; Item?: Record<string, unknown> }[]) {
  return new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes as never });
}

describe('writeNewIdea', () => {
  it('retries a transaction that lost a race on the counter, and succeeds', async () => {
    db.on(TransactWriteCommand)
      .rejectsOnce(cancelled({ Code: 'None' }, { Code: 'TransactionConflict' }))
      .rejectsOnce(cancelled({ Code: 'None' }, { Code: 'TransactionConflict' }))
      .resolves({});
    const {
      created: { idea },
      replayed,
    } = await writeNewIdea('acme', { title: 'Raced' }, { keyId: 'KEY' });
    expect(idea.title).toBe('Raced');
    expect(replayed).toBe(false);
    expect(db.commandCalls(TransactWriteCommand)).toHaveLength(3);
  });

  it('gives up after a bounded number of conflicts, with the error', async () => {
    db.on(TransactWriteCommand).rejects(cancelled({ Code: 'None' }, { Code: 'TransactionConflict' }));
    await expect(writeNewIdea('acme', { title: 'Hot' }, { keyId: 'KEY' })).rejects.toBeInstanceOf(TransactionCanceledException);
    expect(db.commandCalls(TransactWriteCommand).length).toBeGreaterThan(1);
    expect(db.commandCalls(TransactWriteCommand).length).toBeLessThanOrEqual(6);
  });

  it('does not retry a failed condition: the remembered response decides', async () => {
    const remembered = { fingerprint: { S: 'other' }, response: { S: '{}' } };
    db.on(TransactWriteCommand).rejects(
      // The idea, its counter, its two ranks (issue 39), then the idempotency record.
      cancelled(
        { Code: 'None' },
        { Code: 'None' },
        { Code: 'None' },
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Item: remembered },
      ),
    );
    await expect(
      writeNewIdea('acme', { title: 'Again' }, { keyId: 'KEY', idempotency: { key: 'k', fingerprint: 'mine' } }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(db.commandCalls(TransactWriteCommand)).toHaveLength(1);
  });
});

describe('deleteIdea', () => {
  it('tells a missing idea (404) from a moved-on one (409) by the item the condition returned', async () => {
    db.on(TransactWriteCommand)
      .rejectsOnce(cancelled({ Code: 'ConditionalCheckFailed' }, { Code: 'None' }))
      .rejectsOnce(cancelled({ Code: 'ConditionalCheckFailed', Item: { version: { N: '4' } } }, { Code: 'None' }));
    await expect(deleteIdea('acme', 'x', undefined)).rejects.toBeInstanceOf(NotFoundError);
    const error = await deleteIdea('acme', 'x', { anyVersion: false, versions: [3] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VersionConflictError);
    expect((error as VersionConflictError).headers).toEqual({ ETag: '"4"' });
  });
});
