/**
 * The one counter of requests by window that the platform keeps in DynamoDB: a map attribute,
 * `rlWindows`, of window name → count, on a key item (its rate limit) or a workspace budget's shard
 * (lib/platform/data/workspace-budget.ts). One UpdateItem adds one to the window's own entry with
 * `if_not_exists(…) + 1`: no condition on the window and no reset, so concurrent requests each get
 * the next number and no race can make a count fail or be lost (issue 37). The same write removes
 * the entries the caller's read saw that no estimate needs any more, so the map stays two or three
 * entries long. Every name it writes, `rlWindows` (a document path is its top-level attribute to
 * IAM), `lastUsedAt` and a legacy key's `rlWindow`/`rlCount`, is in the grant of read-only routes
 * (cdk/constructs/api-function.ts), which may change nothing else.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { TableKey } from './batch.ts';
import { dynamo, tableName } from './client.ts';
import { isConditionFailure } from './conditions.ts';

/** The counter as a read found it; null when the item has none (or is absent). */
export type CountedWindows = Readonly<Record<string, number>> | null;

export const countedWindowsOf = (item: Record<string, unknown> | undefined): CountedWindows =>
  (item?.rlWindows as Record<string, number> | undefined) ?? null;

export interface WindowCount {
  /** The entry this request counts in. */
  window: string;
  /** What the caller's read found, to know whether the map exists. */
  seen: CountedWindows;
  /** Entries to remove in the same write (ones the read saw and no longer needs). */
  stale: readonly string[];
  /** Set beside the count (a key's `lastUsedAt`). */
  lastUsedAt?: string;
  /** A key: a count of an item that is gone answers undefined instead of making one. */
  itemMustExist: boolean;
  /**
   * Count only while the window's entry holds fewer (a budget's room: lib/platform/tenants/budget.ts),
   * on condition, so a request with no room is never counted; undefined: always count (a key's limit).
   */
  below?: number;
}

/** What a count found: the number this request got, no room for it (with the count that filled it), or the item gone. */
export type Counted = { counted: number } | { full: number } | { gone: true };

/** Add one to the window's entry and answer its count. */
export async function countInWindow(Key: TableKey, count: WindowCount): Promise<Counted> {
  if (count.below !== undefined && count.below < 1) return { full: 0 };
  if (count.seen === null) {
    const started = await startCounter(Key, count);
    if (started !== 'map-exists') return started;
  }
  const stale = count.stale.filter((entry) => entry !== count.window);
  const names = Object.fromEntries(stale.map((entry, i) => [`#stale${i}`, entry]));
  const stamp = count.lastUsedAt ? ', lastUsedAt = :now' : '';
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression:
          `SET rlWindows.#window = if_not_exists(rlWindows.#window, :zero) + :one${stamp}` +
          (stale.length > 0
            ? ` REMOVE ${Object.keys(names)
                .map((name) => `rlWindows.${name}`)
                .join(', ')}`
            : ''),
        ...(count.itemMustExist ? { ConditionExpression: 'attribute_exists(pk)' } : {}),
        ...(count.below !== undefined
          ? {
              ConditionExpression: 'attribute_not_exists(rlWindows.#window) OR rlWindows.#window < :below',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            }
          : {}),
        ExpressionAttributeNames: { '#window': count.window, ...names },
        ExpressionAttributeValues: {
          ':zero': 0,
          ':one': 1,
          ...(count.lastUsedAt ? { ':now': count.lastUsedAt } : {}),
          ...(count.below !== undefined ? { ':below': count.below } : {}),
        },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    const counted = (Attributes?.rlWindows as Record<string, number> | undefined)?.[count.window];
    if (counted === undefined) throw new Error('The count came back without its window');
    return { counted };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (count.below !== undefined) {
      // The item as the failed condition found it, as DynamoDB sends it (the document client leaves it marshalled).
      const found = error.Item ? unmarshall(error.Item as Record<string, AttributeValue>) : undefined;
      return { full: countedWindowsOf(found)?.[count.window] ?? 0 };
    }
    if (count.itemMustExist) return { gone: true };
    throw error;
  }
}

/**
 * An item without the map gets it from its first count (a key made before the map existed, a
 * budget shard's first request): `SET rlWindows = {window: 1}` on condition that it is still absent;
 * the request that loses that race counts in the map the winner made, its one second write.
 */
async function startCounter(Key: TableKey, count: WindowCount): Promise<Counted | 'map-exists'> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression: `SET rlWindows = :windows${count.lastUsedAt ? ', lastUsedAt = :now' : ''}${count.itemMustExist ? ' REMOVE rlWindow, rlCount' : ''}`,
        ConditionExpression: count.itemMustExist
          ? 'attribute_exists(pk) AND attribute_not_exists(rlWindows)'
          : 'attribute_not_exists(rlWindows)',
        ExpressionAttributeValues: { ':windows': { [count.window]: 1 }, ...(count.lastUsedAt ? { ':now': count.lastUsedAt } : {}) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { counted: 1 };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return error.Item || !count.itemMustExist ? 'map-exists' : { gone: true };
  }
}
