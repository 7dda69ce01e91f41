/** Access patterns of Developer key items used on the request path. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tokenMatchesHash } from '../auth/developer-key-token.ts';
import { dynamo, tableName } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { type DeveloperKey, toDeveloperKey } from './developer-key-record.ts';
import { keys } from './keys.ts';

/**
 * What one authentication attempt found. `counted`: the secret matched and the request was
 * counted in the key's window. `rejected`: no key of this workspace holds this secret (unknown id,
 * another workspace's key, a wrong or rotated-away secret); nothing of any key was changed.
 */
export type KeyUse = { kind: 'counted'; key: DeveloperKey; requestsInWindow: number } | { kind: 'rejected' };

type RawItem = Record<string, { S?: string; N?: string }>;

const REJECTED: KeyUse = { kind: 'rejected' };

/**
 * Count one request against key `keyId` of workspace `slug` and return the key, in one
 * conditional UpdateItem whose condition includes the hash of the presented token: only a holder
 * of the real secret counts against the key's rate limit and stamps `lastUsedAt`, so forged
 * secrets can neither lock the real holder out nor fake a "last used". The counter is a fixed
 * window (`rlWindow`, `rlCount`); the first request of a new window resets it with a second,
 * conditional write, so concurrent instances never lose or double a reset. A failed condition
 * returns the item as it was (ReturnValuesOnConditionCheckFailure), which tells "no such key"
 * from "wrong secret" from "new window" without another read.
 */
export async function recordKeyUse(
  slug: string,
  keyId: string,
  token: string,
  tokenHash: string,
  window: number,
  now: string,
): Promise<KeyUse> {
  const Key = keys.developerKey(slug, keyId);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET rlCount = rlCount + :one, lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND secretHash = :hash AND rlWindow = :window',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':window': window, ':hash': tokenHash },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return counted(Attributes!, token);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const old = error.Item as RawItem | undefined;
      // Constant-time, like the check after a success: the hash comparison in the condition is DynamoDB's.
      if (!old?.secretHash?.S || !tokenMatchesHash(token, old.secretHash.S)) return REJECTED;
    }
    // The secret matched but a new window began: start its count, unless another instance just did.
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET rlWindow = :window, rlCount = :one, lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND secretHash = :hash AND rlWindow < :window',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':window': window, ':hash': tokenHash },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return counted(Attributes!, token);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error('Rate-limit window kept changing under concurrent requests');
}

function counted(item: Record<string, unknown>, token: string): KeyUse {
  const key = toDeveloperKey(item);
  // The condition already compared the hash; compare again in constant time before trusting it.
  if (!tokenMatchesHash(token, key.secretHash)) return REJECTED;
  return { kind: 'counted', key, requestsInWindow: item.rlCount as number };
}

/**
 * Count one failed authentication from `source` (the caller's IP address) in this window and
 * return the count. Its own item, apart from every key: failed attempts brake their source and
 * never spend a real holder's budget. It reuses the key counter's attribute names, so the IAM
 * grant of read-only routes (which may change only those attributes) covers it.
 */
export async function recordFailedAuthentication(source: string, window: number): Promise<number> {
  const Key = keys.authFailures(source);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET rlCount = rlCount + :one',
          ConditionExpression: 'rlWindow = :window',
          ExpressionAttributeValues: { ':one': 1, ':window': window },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Attributes!.rlCount as number;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET rlWindow = :window, rlCount = :one',
          ConditionExpression: 'attribute_not_exists(rlWindow) OR rlWindow < :window',
          ExpressionAttributeValues: { ':one': 1, ':window': window },
        }),
      );
      return 1;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error('Rate-limit window kept changing under concurrent requests');
}
