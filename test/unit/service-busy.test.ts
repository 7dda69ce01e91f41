/**
 * What the one error renderer answers when AWS pushed back after every retry (issue 37, item 4): 503
 * `service_busy` with `Retry-After`, never the 502 of a defect. The throttles the sandbox can provoke
 * are met for real in test/integration/service-busy.test.ts; here, with the SDK's own exception
 * classes, the ones it cannot: an SQS throttle (fauxqs never throttles), S3's SlowDown, the SDK's
 * timeout and a conflict-only cancellation (a stalled DynamoDB is also met for real, in
 * dynamodb-timeouts.test.ts).
 */
import {
  ConditionalCheckFailedException,
  ProvisionedThroughputExceededException,
  RequestLimitExceeded,
  TransactionCanceledException,
} from '@aws-sdk/client-dynamodb';
import { RequestThrottled } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { BatchIncompleteError } from '../../lib/platform/data/batch.ts';
import { renderError } from '../../lib/platform/http/middleware/http-envelope.ts';

const meta = { $metadata: {} };

function cancelled(...codes: string[]) {
  return new TransactionCanceledException({
    ...meta,
    message: 'Transaction cancelled',
    CancellationReasons: codes.map((Code) => ({ Code })),
  });
}

const busy = (error: unknown) => {
  const rendered = renderError(error);
  return { status: rendered.status, error: rendered.body.error, retryAfter: rendered.headers['Retry-After'] };
};

describe('renderError of AWS pushing back', () => {
  it.each([
    ['DynamoDB ProvisionedThroughputExceededException', new ProvisionedThroughputExceededException({ ...meta, message: 'slow down' })],
    ['DynamoDB RequestLimitExceeded', new RequestLimitExceeded({ ...meta, message: 'account limit' })],
    [
      'DynamoDB ThrottlingException',
      Object.assign(new Error('Rate of requests exceeds the allowed throughput'), { name: 'ThrottlingException' }),
    ],
    ['a transaction cancelled for throttled items', cancelled('None', 'ThrottlingError')],
    ['a transaction that kept losing races', cancelled('TransactionConflict', 'None')],
    ["the data kit's BatchIncompleteError", new BatchIncompleteError('getMany', 3, 8, 'deadline')],
    ['SQS RequestThrottled', new RequestThrottled({ ...meta, message: 'throttled' })],
    [
      "S3's SlowDown",
      Object.assign(new Error('Please reduce your request rate.'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } }),
    ],
    [
      "the SDK's request timeout",
      Object.assign(new Error('a request has exceeded the configured 3000 ms requestTimeout'), { name: 'TimeoutError' }),
    ],
    [
      'a throttle wrapped as the cause of another error',
      new Error('summary failed', { cause: new ProvisionedThroughputExceededException({ ...meta, message: 'x' }) }),
    ],
  ])('answers %s 503 service_busy with Retry-After', (_, error) => {
    expect(busy(error)).toEqual({ status: 503, error: 'service_busy', retryAfter: '1' });
  });

  it.each([
    ['a failed condition', new ConditionalCheckFailedException({ ...meta, message: 'The conditional request failed' })],
    ['a cancellation with a failed condition beside a throttle', cancelled('ConditionalCheckFailed', 'ThrottlingError')],
    ["DynamoDB Local's InternalFailure", Object.assign(new Error('The request processing has failed'), { name: 'InternalFailure' })],
    ['an access denied', Object.assign(new Error('not authorized'), { name: 'AccessDeniedException' })],
    ['a plain defect', new TypeError("Cannot read properties of null (reading 'content')")],
  ])('leaves %s a 502: it is not worth the same retry', (_, error) => {
    expect(busy(error)).toEqual({ status: 502, error: 'internal_error', retryAfter: undefined });
  });

  it('says nothing of the cause in the message', () => {
    const { body } = renderError(new ProvisionedThroughputExceededException({ ...meta, message: 'arn:aws:dynamodb:…:table/secret' }));
    expect(JSON.stringify(body)).not.toContain('arn:aws');
  });
});
