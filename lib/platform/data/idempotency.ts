/**
 * The one Idempotency-Key mechanism of every creating POST (as Stripe): the create's own
 * transaction also writes a record of its response under the key, so "created" and "remembered"
 * can never disagree. A retry with the same key and the same request gets the remembered response
 * back; the same key with another request is a 409 `idempotency_key_reused`. Records expire after
 * 24 hours (TTL; a record past its time counts as gone even before DynamoDB deletes it).
 */
import { ConflictError } from '../errors.ts';
import { tableName } from './client.ts';
import type { IdempotentRequest } from './idempotent-request.ts';
import { keys } from './keys.ts';
import { TABLE } from './table.ts';
import { type NamedWrites, TransactionCancelledError, type TransactOptions, type TransactWrite, transact } from './transact.ts';

/** How long an Idempotency-Key is remembered (as Stripe). */
const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;

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

/** A remembered response as its record holds it. */
export interface RememberedResponse {
  fingerprint: string;
  /** The response as JSON. */
  response: string;
}

/** The key of the record an Idempotency-Key's response is remembered under. */
export function rememberedKey(workspace: string, idempotency: Pick<IdempotentRequest, 'scope' | 'key'>): { pk: string; sk: string } {
  return keys.idempotency(workspace, idempotency.scope, idempotency.key);
}

/** The remembered response of a record read with `rememberedKey`, unless there is none or it has expired. */
export function rememberedOf(item: Record<string, unknown> | undefined): RememberedResponse | null {
  if (typeof item?.fingerprint !== 'string' || typeof item.response !== 'string') return null;
  // DynamoDB deletes an expired item some time after its TTL: until then it is read, and ignored here.
  const expires = item[TABLE.ttlAttribute];
  if (typeof expires === 'number' && expires <= Math.floor(Date.now() / 1000)) return null;
  return { fingerprint: item.fingerprint, response: item.response };
}

/** The remembered response of a record, or the 409 of a key reused with another request. */
export function replayOf<T>(record: Record<string, unknown> | RememberedResponse, idempotency: Pick<IdempotentRequest, 'fingerprint'>): T {
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
  options: TransactOptions = {},
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

export type { IdempotentRequest } from './idempotent-request.ts';
