/** Access patterns of Developer key items used on the request path. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { type DeveloperKey, toDeveloperKey } from './developer-key-record.ts';
import { keys } from './keys.ts';

/** A key as seen by the request that just used it: its record and its count in this window. */
export interface KeyUse {
  key: DeveloperKey;
  requestsInWindow: number;
}

/**
 * Count one request against key `keyId` of workspace `slug` and return the key, in one
 * conditional UpdateItem: the key check and the rate-limit count share a round trip. The counter
 * is a fixed window (`rlWindow`, `rlCount`); the first request of a new window resets it with a
 * second, conditional write, so concurrent instances never lose or double a reset.
 * Returns null when the workspace holds no such key (including a key of another workspace).
 */
export async function recordKeyUse(slug: string, keyId: string, window: number, now: string): Promise<KeyUse | null> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.developerKey(slug, keyId),
          UpdateExpression: 'SET rlCount = rlCount + :one, lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND rlWindow = :window',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':window': window },
          ReturnValues: 'ALL_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { key: toDeveloperKey(Attributes!), requestsInWindow: Attributes!.rlCount as number };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (!error.Item) return null;
    }
    // A new window began: start its count, unless another instance just did.
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.developerKey(slug, keyId),
          UpdateExpression: 'SET rlWindow = :window, rlCount = :one, lastUsedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND rlWindow < :window',
          ExpressionAttributeValues: { ':one': 1, ':now': now, ':window': window },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { key: toDeveloperKey(Attributes!), requestsInWindow: 1 };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  throw new Error('Rate-limit window kept changing under concurrent requests');
}
