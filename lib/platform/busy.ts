/**
 * "Busy" apart from "broken": which failures of an AWS call mean "send it again in a moment".
 *
 * After the SDK's own retries (lib/platform/data/client.ts) and the data kit's (batches, throttled
 * transactions: lib/platform/data/), what is left of a throttle or a timeout is still only AWS
 * pushing back, not a defect: the answer is 503 `service_busy` with `Retry-After`
 * (docs/errors.md), so a client's retry policy can tell it from a 502. Recognised, wherever the
 * error was wrapped (a `cause` chain):
 *   - throttling, by the names and flags the SDK's own retry strategy classifies as throttling
 *     (@smithy/service-error-classification: THROTTLING_ERROR_CODES, `$retryable.throttling`, an
 *     HTTP 429): DynamoDB's ProvisionedThroughputExceededException, ThrottlingException and
 *     RequestLimitExceeded, SQS's RequestThrottled, S3's SlowDown;
 *   - a transaction DynamoDB cancelled only for throttled items (`ThrottlingError` reasons:
 *     https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html)
 *     or only for lost races with concurrent transactions (`TransactionConflict`), once the kit's
 *     retries are spent: nothing was written, and the same request succeeds later;
 *   - the data kit's BatchIncompleteError (keys or writes still unprocessed when its retry policy
 *     gave up: DynamoDB leaves them unprocessed only for throughput or the size of an answer);
 *   - a timeout of the SDK's HTTP handler (`TimeoutError`, client.ts's connection and request
 *     timeouts) and the service's own "unavailable" answer (ServiceUnavailable, HTTP 503) that
 *     outlived the SDK's retries.
 * Not busy, and so still a 502: an InternalServerError or InternalFailure (DynamoDB Local answers
 * InternalFailure to requests it cannot handle), an access denied, a validation error.
 */
// By name and shape, not by class: the error renderer is in every function, the public ones too, which
// load neither the DynamoDB client nor the data kit (lib/platform/http/public-handler.ts).
import { ServiceBusyError } from './errors.ts';

/** The SDK's THROTTLING_ERROR_CODES (@smithy/service-error-classification), which its retries treat as throttling. */
const THROTTLING_NAMES = new Set([
  'BandwidthLimitExceeded',
  'EC2ThrottledException',
  'LimitExceededException',
  'PriorRequestNotComplete',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
  'ThrottledException',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'TransactionInProgressException',
]);

interface AwsLikeError {
  name?: string;
  $retryable?: { throttling?: boolean };
  $metadata?: { httpStatusCode?: number };
  CancellationReasons?: { Code?: string }[];
  cause?: unknown;
}

/** How AWS pushed back, or null when the error is something else (a defect, a failed condition, a validation). */
export type PushBack = 'throttled' | 'contended' | 'timed-out' | null;

function pushBackOf(error: unknown): PushBack {
  const aws = error as AwsLikeError | null;
  if (!aws || typeof aws !== 'object') return null;
  const name = aws.name ?? '';
  // The data kit's (lib/platform/data/batch.ts): keys or writes left unprocessed when its retries gave up.
  if (name === 'BatchIncompleteError') return 'throttled';
  if (THROTTLING_NAMES.has(name) || aws.$retryable?.throttling === true || aws.$metadata?.httpStatusCode === 429) return 'throttled';
  if (name === 'TransactionConflictException') return 'contended';
  if (name === 'TransactionCanceledException') {
    const failed = (aws.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None').filter((code) => code !== 'None');
    if (failed.length === 0 || !failed.every((reason) => reason === 'ThrottlingError' || reason === 'TransactionConflict')) return null;
    return failed.includes('ThrottlingError') ? 'throttled' : 'contended';
  }
  if (name === 'TimeoutError' || name === 'ServiceUnavailable' || aws.$metadata?.httpStatusCode === 503) return 'timed-out';
  return null;
}

/** How AWS pushed back on the call that failed with `error` (or on one its `cause` chain names), else null. */
export function pushBack(error: unknown): PushBack {
  for (let at: unknown = error, depth = 0; at && depth < 5; at = (at as AwsLikeError).cause, depth++) {
    const found = pushBackOf(at);
    if (found) return found;
  }
  return null;
}

/**
 * Seconds a client should wait: a throttled partition refills within a second, and the data kit's
 * throttled transactions already waited 1.55–3.1 s, so one more second is enough to find room again.
 */
export const BUSY_RETRY_AFTER_SECONDS = 1;

const BUSY_MESSAGES: Record<Exclude<PushBack, null>, string> = {
  throttled: 'The service is busy: DynamoDB or SQS throttled the request after its retries',
  contended: 'The service is busy: concurrent requests kept changing the same records',
  'timed-out': 'The service is busy: DynamoDB or SQS did not answer in time after its retries',
};

/** The 503 to answer for a failure AWS's pushing back explains, else null. */
export function busyAnswer(error: unknown): ServiceBusyError | null {
  const kind = pushBack(error);
  return kind ? new ServiceBusyError(BUSY_RETRY_AFTER_SECONDS, `${BUSY_MESSAGES[kind]}; retry after ${BUSY_RETRY_AFTER_SECONDS} s`) : null;
}
