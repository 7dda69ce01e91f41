/**
 * What the summary aggregator says when DynamoDB times out (issue 37 item 15: the batch's error said
 * "One response does not fit a summary transaction" when the cause was a timeout). A timeout after the
 * SDK's own retries cannot be provoked from DynamoDB Local at will: a mocked client stands in, for it only.
 */
import { BatchGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { dynamo } from '../../lib/platform/data/client.ts';
import { aggregateResponseRecords } from '../../lib/surveys/summary/aggregator.ts';
import type { ResponseRecord } from '../../lib/surveys/summary/stream-records.ts';

const db = mockClient(dynamo);
afterEach(() => db.reset());

/** What the SDK throws when DynamoDB does not answer within the client's request timeout (lib/platform/data/client.ts). */
function timedOut() {
  return Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError' });
}

/** A removal: folding it needs no version's catalog, only the chunk's own read and transaction. */
const removal = (responseId: string): ResponseRecord => ({
  workspace: 'acme',
  surveyId: '0190c6b4-0000-7000-8000-000000000001',
  versionId: '0190c6b4-0000-7000-8000-000000000002',
  responseId,
  revision: 2,
  day: '2026-01-02',
  response: null,
  sequenceNumber: '1',
});

describe('the summary aggregator, when DynamoDB times out', () => {
  it('splits the chunk down to one response, then fails the batch saying it timed out, with the timeout as its cause', async () => {
    db.on(BatchGetCommand).rejects(timedOut());
    db.on(TransactWriteCommand).rejects(timedOut());
    const error = (await aggregateResponseRecords([removal('r1'), removal('r2')]).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(/timed out/);
    expect(error.message).not.toMatch(/does not fit/);
    expect(error.cause).toMatchObject({ name: 'TimeoutError' });
    // The two responses together, then the first alone: two reads, each timed out.
    expect(db.commandCalls(BatchGetCommand)).toHaveLength(2);
  });
});
