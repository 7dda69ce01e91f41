/**
 * The one Idempotency-Key mechanism of every creating POST (as Stripe): the create's own
 * transaction also writes a record of its response under the key, so "created" and "remembered"
 * can never disagree. A retry with the same key and the same request gets the remembered response
 * back; the same key with another request is a 409 `idempotency_key_reused`. Records expire after
 * 24 hours (TTL; a record past its time counts as gone even before DynamoDB deletes it).
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError } from '../errors.ts';
import { dynamo, tableName } from './client.ts';
import { retryTransactionConflicts, transactionCancellationReasons } from './conditions.ts';
import { keys } from './keys.ts';
import { TABLE } from './table.ts';
import { type NamedWrites, TransactionCancelledError, type TransactWrite, transact } from './transact.ts';

/** How long an Idempotency-Key is remembered (as Stripe). */
const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

/** What a request asks to be remembered under: set by the middy chain for routes marked `idempotent`. */
export interface IdempotentRequest {
  /** The client's Idempotency-Key. */
  key: string;
  /** The operation on its concrete path, e.g. `POST /journeys/<id>/versions`: keys are per operation. */
  scope: string;
  /** Digest of the request body (lib/platform/http/conditional-request.ts `requestFingerprint`). */
  fingerprint: string;
}

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** The name of the remembered response's item in a `createOnce` transaction. */
export const IDEMPOTENCY_ITEM = 'idempotency';

/** The Put of the remembered response: written only when no live record holds the key. */
function rememberPut(workspace: string, idempotency: IdempotentRequest, response: unknown): TransactWrite {
  const nowSeconds = Math.floor(Date.now() / 1000);
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...keys.idempotency(workspace, idempotency.scope, idempotency.key),
        entity: 'IdempotencyRecord',
        fingerprint: idempotency.fingerprint,
        response: JSON.stringify(response),
        createdAt: new Date(nowSeconds * 1000).toISOString(),
        [TABLE.ttlAttribute]: nowSeconds + IDEMPOTENCY_WINDOW_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk) OR #ttl <= :now',
      ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
      ExpressionAttributeValues: { ':now': nowSeconds },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** The remembered response of a record, or the 409 of a key reused with another request. */
function replayOf<T>(record: Record<string, unknown>, idempotency: IdempotentRequest): T {
  if (record.fingerprint !== idempotency.fingerprint) {
    throw new ConflictError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request; use a new key for a new request',
    );
  }
  return JSON.parse(record.response as string) as T;
}

/**
 * A create's named transaction (lib/platform/data/transact.ts), plus the remembered response under
 * the item name `idempotency` when `idempotency` is given. A retry with the same key and request
 * gets the first response back (`replayed`), another request under the key a 409
 * `idempotency_key_reused`; any other cancellation is the `TransactionCancelledError` of `transact`,
 * by the caller's names.
 */
export async function createOnce<T>(
  workspace: string,
  writes: NamedWrites,
  response: T,
  idempotency: IdempotentRequest | undefined,
  options: { attempts?: number } = {},
): Promise<{ response: T; replayed: boolean }> {
  if (IDEMPOTENCY_ITEM in writes) throw new Error(`"${IDEMPOTENCY_ITEM}" names the remembered response; name the write otherwise`);
  try {
    await transact(idempotency ? { ...writes, [IDEMPOTENCY_ITEM]: rememberPut(workspace, idempotency, response) } : writes, options);
    return { response, replayed: false };
  } catch (error) {
    const record = error instanceof TransactionCancelledError ? error.current(IDEMPOTENCY_ITEM) : null;
    if (!idempotency || !record?.response) throw error;
    return { response: replayOf<T>(record, idempotency), replayed: true };
  }
}

/**
 * Run a create's transaction given by position, plus the remembered response when `idempotency` is given. The record
 * is the transaction's last item, so the caller's own cancellation reasons keep their indexes: any
 * other failure is rethrown as it came, for the caller to map.
 */
export async function transactCreate<T>(
  slug: string,
  writes: TransactItems,
  response: T,
  idempotency: IdempotentRequest | undefined,
  attempts = 6,
): Promise<{ response: T; replayed: boolean }> {
  const items = idempotency ? [...writes, rememberPut(slug, idempotency, response)] : [...writes];
  try {
    await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })), attempts);
    return { response, replayed: false };
  } catch (error) {
    const remembered = idempotency && rememberedResponse(error, items.length - 1);
    if (!remembered) throw error;
    return { response: replayOf<T>(remembered, idempotency), replayed: true };
  }
}

/** The earlier request's record when the transaction failed only on the idempotency condition. */
function rememberedResponse(error: unknown, index: number): { fingerprint: string; response: string } | null {
  const reasons = transactionCancellationReasons(error);
  if (reasons?.[index] !== 'ConditionalCheckFailed') return null;
  const item = (error as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] }).CancellationReasons?.[index]?.Item;
  const fingerprint = item?.fingerprint?.S;
  const response = item?.response?.S;
  return fingerprint && response ? { fingerprint, response } : null;
}

/** The header a replayed response carries, so a client can tell a replay from a new create. */
export function replayHeaders(replayed: boolean): Record<string, string> {
  return replayed ? { 'Idempotent-Replayed': 'true' } : {};
}
