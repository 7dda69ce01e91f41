/**
 * The one TransactWriteItems of every store: items go in by name, and a cancelled transaction
 * comes back as a `TransactionCancelledError` that says which names failed and carries each failed
 * item's current values (ReturnValuesOnConditionCheckFailure, already unmarshalled), so a store
 * tells 404 from 409 without another read. Lost races with concurrent transactions, and transactions
 * DynamoDB throttled, are retried (conditions.ts `retryTransactionConflicts`); a failed condition never is, since it would fail the
 * same way. The SDK's own error reaches no store: only this file reads CancellationReasons.
 */
import type { AttributeValue, CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo, tableName } from './client.ts';
import { isTransactionConflict, retryTransactionConflicts, transactionCancellationReasons } from './conditions.ts';
import { type UpdateBuilder, update } from './update.ts';

/** One item of a transaction, as the document client takes it (Put, Update, Delete or ConditionCheck). */
export type TransactWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/**
 * A transaction's items by name, in the order they are written. An item given as `false`, `null` or
 * `undefined` is left out, so an optional write (a counter move that may not apply) reads as one line.
 */
export type NamedWrites = Record<string, TransactWrite | false | null | undefined>;

/** Why one named item cancelled the transaction, and the item as it stood (undefined when absent). */
export interface CancelledItem {
  /** DynamoDB's reason code: `ConditionalCheckFailed`, `TransactionConflict`, `ValidationError`, … */
  reason: string;
  current: Record<string, unknown> | undefined;
}

/** How often a transaction that keeps losing races is tried before its error is thrown. */
export const TRANSACTION_ATTEMPTS = 6;

/**
 * A cancelled transaction, by name. The current items (which may hold personal data) and DynamoDB's
 * own exception are not enumerable, so an error that reaches the log (an unmapped failure is logged
 * before its 502) carries only the names and reason codes.
 */
export class TransactionCancelledError extends Error {
  /** Only the items that failed, by name. */
  declare readonly failures: Readonly<Record<string, CancelledItem>>;

  constructor(failures: Readonly<Record<string, CancelledItem>>, options: { cause: unknown }) {
    super(
      `Transaction cancelled: ${
        Object.entries(failures)
          .map(([name, { reason }]) => `${name} ${reason}`)
          .join(', ') || 'no named item'
      }`,
    );
    this.name = 'TransactionCancelledError';
    Object.defineProperty(this, 'failures', { value: failures, enumerable: false });
    Object.defineProperty(this, 'cause', { value: options.cause, enumerable: false });
  }

  /** Whether the named item's condition failed. */
  failed(name: string): boolean {
    return this.failures[name]?.reason === 'ConditionalCheckFailed';
  }

  /** The named item as it stood when its condition failed (undefined when it did not exist); null when it did not fail. */
  current(name: string): Record<string, unknown> | undefined | null {
    return this.failed(name) ? this.failures[name]?.current : null;
  }

  /** The names whose conditions failed, in the transaction's order. */
  get failedNames(): string[] {
    return Object.keys(this.failures).filter((name) => this.failed(name));
  }
}

/**
 * For a store deciding what a cancelled transaction means: the named write's item as it stood when
 * its condition failed (`current` undefined: it did not exist), or null when that condition did not fail.
 */
export function failedCondition(error: unknown, name: string): { current: Record<string, unknown> | undefined } | null {
  if (!(error instanceof TransactionCancelledError) || !error.failed(name)) return null;
  return { current: error.current(name) ?? undefined };
}

/**
 * The Update of a transaction that adds `by` to the counter `attribute` of `key` (ADD: an absent
 * counter starts at zero), under `condition` when given: a category's article count, say. `entity`
 * names the counter item's kind, for a counter made by its first add.
 */
export function counterAdd(
  key: { pk: string; sk: string },
  attribute: string,
  by: number,
  options: { entity?: string; condition?: Parameters<UpdateBuilder['build']>[0] } = {},
): TransactWrite {
  const changed = update().add(attribute, by);
  if (options.entity) changed.set('entity', options.entity);
  return { Update: { TableName: tableName, Key: key, ...changed.build(options.condition) } };
}

/** Every write that has a condition gets its current item back when the condition fails: it costs nothing extra. */
function withCurrentOnFailure(write: TransactWrite): TransactWrite {
  const [kind, body] = Object.entries(write)[0] as [keyof TransactWrite, { ConditionExpression?: string } | undefined];
  if (!body?.ConditionExpression || 'ReturnValuesOnConditionCheckFailure' in body) return write;
  return { [kind]: { ...body, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } } as TransactWrite;
}

export interface TransactOptions {
  attempts?: number;
  /**
   * The domain error for a transaction that still lost races after `attempts` tries (e.g. the
   * knowledge bank's 409 `tree_changed`, which a client retries); without it the SDK's error is
   * thrown and answers 502.
   */
  contended?: () => Error;
}

/**
 * Write the named items in one transaction. Throws `TransactionCancelledError` when a condition
 * failed; a transaction that still lost races after `attempts` tries throws `contended()` when
 * given; any other error is thrown as the SDK gave it.
 */
export async function transact(writes: NamedWrites, options: TransactOptions = {}): Promise<void> {
  const named = Object.entries(writes).filter((entry): entry is [string, TransactWrite] => Boolean(entry[1]));
  const items = named.map(([, write]) => withCurrentOnFailure(write));
  try {
    await retryTransactionConflicts(
      () => dynamo.send(new TransactWriteCommand({ TransactItems: items })),
      options.attempts ?? TRANSACTION_ATTEMPTS,
    );
  } catch (error) {
    const cancelled = cancellationOf(
      error,
      named.map(([name]) => name),
    );
    if (cancelled) throw cancelled;
    if (options.contended && isTransactionConflict(error)) throw options.contended();
    throw error;
  }
}

/** The SDK's cancellation as a `TransactionCancelledError` by name, when a condition failed; else null. */
export function cancellationOf(error: unknown, names: readonly string[]): TransactionCancelledError | null {
  const reasons = transactionCancellationReasons(error);
  if (!reasons?.includes('ConditionalCheckFailed')) return null;
  const raw = (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
  const failures: Record<string, CancelledItem> = {};
  reasons.forEach((reason, index) => {
    const name = names[index];
    if (reason === 'None' || name === undefined) return;
    const item = raw[index]?.Item as Record<string, AttributeValue> | undefined;
    failures[name] = { reason, current: item ? unmarshall(item) : undefined };
  });
  return new TransactionCancelledError(failures, { cause: error });
}
