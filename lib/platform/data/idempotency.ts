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

/**
 * Run a create's transaction, plus the remembered response when `idempotency` is given. The record
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
  const items = [...writes];
  if (idempotency) {
    const nowSeconds = Math.floor(Date.now() / 1000);
    items.push({
      Put: {
        TableName: tableName,
        Item: {
          ...keys.idempotency(slug, idempotency.scope, idempotency.key),
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
    });
  }
  try {
    await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })), attempts);
    return { response, replayed: false };
  } catch (error) {
    const remembered = idempotency && rememberedResponse(error, items.length - 1);
    if (!remembered) throw error;
    if (remembered.fingerprint !== idempotency.fingerprint) {
      throw new ConflictError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request; use a new key for a new request',
      );
    }
    return { response: JSON.parse(remembered.response) as T, replayed: true };
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
