import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { equalJitterDelayMs, fullJitterDelayMs, sleep } from './backoff.ts';

/** True when a write failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return error instanceof ConditionalCheckFailedException || (error as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * For a cancelled transaction, the reason code of each item in order ('None' where that item was
 * fine), else null. Lets a caller say which condition failed.
 */
export function transactionCancellationReasons(error: unknown): string[] | null {
  if (error instanceof TransactionCanceledException || (error as { name?: string })?.name === 'TransactionCanceledException') {
    const reasons = (error as TransactionCanceledException).CancellationReasons ?? [];
    return reasons.map((r) => r.Code ?? 'None');
  }
  return null;
}

/**
 * True when a write lost only a race with a concurrent transaction on one of its items: worth
 * retrying. A failed condition is not a conflict; retrying would fail the same way.
 */
export function isTransactionConflict(error: unknown): boolean {
  if ((error as { name?: string })?.name === 'TransactionConflictException') return true;
  const reasons = transactionCancellationReasons(error);
  if (reasons === null) return false;
  return reasons.includes('TransactionConflict') && !reasons.includes('ConditionalCheckFailed');
}

/**
 * True when DynamoDB cancelled a transaction only because one of its items was over its partition's
 * throughput (reason `ThrottlingError`, https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html):
 * nothing was written, and the same transaction succeeds once the partition has room. The SDK does
 * not retry it (TransactionCanceledException is no throttling error to it), so the kit does.
 */
function isTransactionThrottled(error: unknown): boolean {
  const reasons = transactionCancellationReasons(error);
  return reasons?.includes('ThrottlingError') === true && !reasons.includes('ConditionalCheckFailed');
}

/** Full jitter growing to at most 200 ms: spreads out writers racing for one item (a counter, say). */
export function conflictBackoff(attempt: number): Promise<void> {
  return sleep(fullJitterDelayMs(attempt + 1, 10, 200));
}

/**
 * Equal jitter growing to at most 1.6 s (50–100 ms, 100–200, … 800–1,600): a partition refills its
 * units every second, so five waits take 1.55 s at least (past the spent second whatever the dice
 * say) and 3.1 s at most, inside a function's timeout. Full jitter could sum to a few milliseconds and
 * give up while the partition was still empty.
 */
function throttleBackoff(attempt: number): Promise<void> {
  return sleep(equalJitterDelayMs(attempt, 100, 1600));
}

/** Run `write`, again and again up to `attempts` times while it keeps losing transaction races or being throttled. */
export async function retryTransactionConflicts<T>(write: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let throttled = false;
    try {
      return await write();
    } catch (error) {
      throttled = isTransactionThrottled(error);
      if ((!throttled && !isTransactionConflict(error)) || attempt >= attempts) throw error;
    }
    await (throttled ? throttleBackoff(attempt) : conflictBackoff(attempt));
  }
}

/** What `If-Match` asks for: any existing version (`*`), one of the listed versions, or nothing. */
export type VersionPrecondition = { anyVersion: true } | { anyVersion: false; versions: number[] } | undefined;

/**
 * ` AND #version IN (…)` for an If-Match that lists versions, with its attribute name and values;
 * nothing for none or `*`. `attribute` is the one the versions are of (a journey version's `revision`).
 */
export function versionCondition(
  precondition: VersionPrecondition,
  attribute = 'version',
): { expression: string; names: Record<string, string>; values: Record<string, number> } {
  if (!precondition || precondition.anyVersion) return { expression: '', names: {}, values: {} };
  const values = Object.fromEntries(precondition.versions.map((v, i) => [`:ifMatch${i}`, v]));
  return { expression: ` AND #${attribute} IN (${Object.keys(values).join(', ')})`, names: { [`#${attribute}`]: attribute }, values };
}

/**
 * The condition of a Delete in a transaction: `expression`, and the If-Match's versions when it
 * lists some (only then its names and values, as DynamoDB refuses empty ones).
 */
export function ifMatchCondition(expression: string, precondition: VersionPrecondition, attribute = 'version') {
  const version = versionCondition(precondition, attribute);
  return {
    ConditionExpression: `${expression}${version.expression}`,
    ...(version.expression ? { ExpressionAttributeNames: version.names, ExpressionAttributeValues: version.values } : {}),
  };
}

/** Whether a record at `version` meets the precondition (for operations that write nothing). */
export function meetsPrecondition(precondition: VersionPrecondition, version: number): boolean {
  return !precondition || precondition.anyVersion || precondition.versions.includes(version);
}
