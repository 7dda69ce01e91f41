import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';

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
