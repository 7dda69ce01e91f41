/**
 * The one BatchGetItem / BatchWriteItem of every store, with one bounded retry policy. DynamoDB may
 * answer a batch with part of it unprocessed (a throttled partition, a 16 MB answer), or refuse
 * the whole call while throttled; both are retried here, and only here: exponential backoff with
 * equal jitter, an attempt cap, and a deadline well inside the function's timeout. When the policy
 * gives up, `BatchIncompleteError` says what was left and why, and a caller never receives a
 * partial answer as if it were whole. As in Powertools' batch processing, a partial failure is a
 * value to handle, not a reason to spin: no loop here can run until Lambda kills the function.
 */
import { BatchGetCommand, BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_TIMEOUT_SECONDS } from '../timeouts.ts';
import { equalJitterDelayMs, sleep } from './backoff.ts';
import { dynamo, tableName } from './client.ts';
import { projection } from './projection.ts';

/** An item's primary key. */
export type TableKey = { pk: string; sk: string };
export type Item = Record<string, unknown>;

export interface BatchRetryPolicy {
  /** Calls in all, the first one included. */
  attempts: number;
  /** The first retry waits up to this long (at least half of it); each further one up to twice as long (equal jitter). */
  baseDelayMs: number;
  /** No single wait is longer than this. */
  maxDelayMs: number;
  /** No retry starts (or waits) past this long after the first call. */
  deadlineMs: number;
}

/**
 * Eight calls waiting 12.5–25, 25–50, … 500–1000 ms between them: 1.29 s of waiting at the least, so
 * a throttled batch is always tried again after its partition's spent second (a partition refills
 * every second; full jitter's waits could add up to nothing, and the batch gave up on the dice, as
 * throttled transactions did: conditions.ts), and under 3 s at the most, where the deadline caps it
 * whatever the attempts. With one call's own worst case
 * bounded by client.ts, that keeps a throttled batch's answer (a 502 envelope) inside the shortest
 * function timeout (timeouts.ts DEFAULT_TIMEOUT_SECONDS) instead of API Gateway's bare timeout.
 */
export const BATCH_RETRY: BatchRetryPolicy = {
  attempts: 8,
  baseDelayMs: 25,
  maxDelayMs: 1000,
  deadlineMs: Math.min(3000, (DEFAULT_TIMEOUT_SECONDS * 1000) / 3),
};

/** The batch limits of the API: 100 keys per BatchGetItem, 25 requests per BatchWriteItem. */
const GET_BATCH = 100;
const WRITE_BATCH = 25;

export class BatchIncompleteError extends Error {
  constructor(
    readonly operation: 'getMany' | 'writeMany' | 'deleteMany',
    /** How many keys or writes were still unprocessed when the policy gave up. */
    readonly unprocessed: number,
    readonly attempts: number,
    readonly reason: 'attempts' | 'deadline',
    options?: { cause?: unknown },
  ) {
    super(`${operation} gave up with ${unprocessed} unprocessed after ${attempts} attempts (${reason})`, options);
    this.name = 'BatchIncompleteError';
  }
}

/** Errors that mean "slow down", after the SDK's own retries: the whole request counts as unprocessed. */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);
function isThrottling(error: unknown): boolean {
  return THROTTLING.has((error as { name?: string })?.name ?? '');
}

/**
 * Send `pending` with `call` until nothing is left, under `policy`. `call` answers what it left
 * unprocessed; a throttled call leaves everything.
 */
async function untilProcessed<T>(
  operation: BatchIncompleteError['operation'],
  pending: T[],
  call: (requests: T[]) => Promise<T[]>,
  policy: BatchRetryPolicy,
): Promise<void> {
  const started = Date.now();
  let lastError: unknown;
  for (let attempt = 1; pending.length > 0; attempt++) {
    try {
      pending = await call(pending);
      lastError = undefined;
    } catch (error) {
      if (!isThrottling(error)) throw error;
      lastError = error;
    }
    if (pending.length === 0) return;
    if (attempt >= policy.attempts) throw new BatchIncompleteError(operation, pending.length, attempt, 'attempts', { cause: lastError });
    const delay = equalJitterDelayMs(attempt, policy.baseDelayMs, policy.maxDelayMs);
    if (Date.now() + delay - started > policy.deadlineMs) {
      throw new BatchIncompleteError(operation, pending.length, attempt, 'deadline', { cause: lastError });
    }
    await sleep(delay);
  }
}

function chunks<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

const keyId = (key: { pk?: unknown; sk?: unknown }) => `${String(key.pk)}\u0000${String(key.sk)}`;

export interface GetManyOptions {
  /** Strongly consistent reads, as every other read of the stores (default true). */
  consistent?: boolean;
  /** Only these attributes (pk and sk are always read, to place each item). */
  attributes?: readonly string[];
  retry?: Partial<BatchRetryPolicy>;
}

/**
 * The items of `keys`, in the same order (undefined where there is none). A repeated key is read
 * once. Up to 100 keys is one round trip; more are read 100 at a time, in parallel.
 */
export async function getMany(keys: readonly TableKey[], options: GetManyOptions = {}): Promise<(Item | undefined)[]> {
  const unique = [...new Map(keys.map((key) => [keyId(key), { pk: key.pk, sk: key.sk }])).values()];
  const policy = { ...BATCH_RETRY, ...options.retry };
  const shape = options.attributes ? projection(['pk', 'sk', ...options.attributes.filter((a) => a !== 'pk' && a !== 'sk')]) : {};
  const found = new Map<string, Item>();
  await Promise.all(
    chunks(unique, GET_BATCH).map((chunk) =>
      untilProcessed(
        'getMany',
        chunk,
        async (pending) => {
          const { Responses, UnprocessedKeys } = await dynamo.send(
            new BatchGetCommand({
              RequestItems: { [tableName]: { Keys: pending, ConsistentRead: options.consistent ?? true, ...shape } },
            }),
          );
          for (const item of Responses?.[tableName] ?? []) found.set(keyId(item), item);
          return (UnprocessedKeys?.[tableName]?.Keys ?? []) as TableKey[];
        },
        policy,
      ),
    ),
  );
  return keys.map((key) => found.get(keyId(key)));
}

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

async function writeRequests(
  operation: 'writeMany' | 'deleteMany',
  requests: WriteRequest[],
  retry: Partial<BatchRetryPolicy> | undefined,
): Promise<void> {
  const policy = { ...BATCH_RETRY, ...retry };
  await Promise.all(
    chunks(requests, WRITE_BATCH).map((chunk) =>
      untilProcessed(
        operation,
        chunk,
        async (pending) => {
          const { UnprocessedItems } = await dynamo.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }));
          return UnprocessedItems?.[tableName] ?? [];
        },
        policy,
      ),
    ),
  );
}

/**
 * Put every item (unconditionally: BatchWriteItem takes no conditions), 25 per call, in parallel.
 * Not atomic: for all-or-nothing writes use `transact`.
 */
export function writeMany(items: readonly Item[], options: { retry?: Partial<BatchRetryPolicy> } = {}): Promise<void> {
  return writeRequests(
    'writeMany',
    items.map((item) => ({ PutRequest: { Item: item } })),
    options.retry,
  );
}

/** Delete every key (a missing item is no error), 25 per call, in parallel. Not atomic. */
export function deleteMany(keys: readonly TableKey[], options: { retry?: Partial<BatchRetryPolicy> } = {}): Promise<void> {
  const unique = [...new Map(keys.map((key) => [keyId(key), { pk: key.pk, sk: key.sk }])).values()];
  return writeRequests(
    'deleteMany',
    unique.map((key) => ({ DeleteRequest: { Key: key } })),
    options.retry,
  );
}
