/** Access patterns of Developer key items used on the request path. */
import { randomInt } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tokenMatchesHash } from '../auth/developer-key-token.ts';
import { getMany, type TableKey } from './batch.ts';
import { dynamo, tableName } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { type DeveloperKey, toDeveloperKey } from './developer-key-record.ts';
import { keys } from './keys.ts';
import { TABLE } from './table.ts';
import { toWorkspace, WORKSPACE_COPIES, type Workspace } from './workspace-record.ts';

/** A key as authentication read it: its record, and the rate-limit window its counter was last counted in. */
export interface StoredKey {
  key: DeveloperKey;
  countedWindow: number;
}

/**
 * One copy of the workspace item, chosen at random (keys.workspaceCopy), and the key, in one
 * strongly consistent BatchGetItem (a suspension or a revocation counts from the very next request),
 * with `also` beside them when given (a create's remembered Idempotency-Key response,
 * lib/platform/data/idempotency.ts), still one round trip. `workspace` is null when that copy is
 * missing: the workspace is gone, or was made before its copies existed (findWorkspaceItself).
 * A read, not a conditional update: an update naming `secretHash` in its condition would need a
 * grant that also allows `SET secretHash` (README, IAM). Unprocessed keys (throttling) are retried by
 * the data kit's bounded policy.
 */
export async function findWorkspaceAndKey(
  workspace: string,
  keyId: string,
  also?: TableKey,
): Promise<{ workspace: Workspace | null; key: StoredKey | null; also: Record<string, unknown> | undefined }> {
  const copy = keys.workspaceCopy(workspace, randomInt(WORKSPACE_COPIES));
  const [copyItem, keyItem, alsoItem] = await getMany([copy, keys.developerKey(workspace, keyId), ...(also ? [also] : [])], {
    consistent: true,
  });
  return {
    workspace: copyItem ? toWorkspace(copyItem) : null,
    key: keyItem ? { key: toDeveloperKey(keyItem), countedWindow: Number(keyItem.rlWindow ?? 0) } : null,
    also: alsoItem,
  };
}

/**
 * The workspace item itself, for a valid key whose workspace copy was missing: a workspace made
 * before copies existed (until an operator's next change of it, or the migration, writes them), or
 * one that is gone. One more round trip for those only; a BatchGetItem, which authentication may send.
 */
export async function findWorkspaceItself(workspace: string): Promise<Workspace | null> {
  const [item] = await getMany([keys.workspace(workspace)], { consistent: true });
  return item ? toWorkspace(item) : null;
}

/** Whether `token` is the key's current secret (constant time). Nothing is written either way. */
export function holdsSecret(stored: StoredKey, token: string): boolean {
  return tokenMatchesHash(token, stored.key.secretHash);
}

/**
 * Count one request against a key whose secret the caller proved (holdsSecret), so forged secrets
 * can neither spend the real holder's budget nor fake a "last used", and return the window's count;
 * undefined when the key was deleted since it was read. The UpdateItem names only the key and the
 * counter's attributes (`rlWindow`, `rlCount`, `lastUsedAt`) and asks back only what it changed:
 * exactly what read-only routes may do to a key item (cdk/constructs/api-function.ts). The window
 * the read found picks the first write: the count's increment within it, or the reset a new window
 * starts with, so a request costs one UpdateItem either way unless another instance raced it.
 */
export async function countKeyUse(stored: StoredKey, window: number, now: string): Promise<number | undefined> {
  const { key, countedWindow } = stored;
  return countInWindow(keys.developerKey(key.workspace, key.id), window, {
    lastUsedAt: now,
    mayCreate: false,
    resetFirst: countedWindow < window,
  });
}

/**
 * Add one to an item's fixed-window counter (`rlWindow`, `rlCount`) and return the window's count.
 * The increment is conditional on the window; a new window starts with a reset, conditional on the
 * stored window being older, so concurrent instances never lose or double a reset. `resetFirst`
 * (the caller read an older window) tries the reset first, else the increment comes first and a
 * failed one is followed by the reset. `lastUsedAt` stamps the item when given. `mayCreate`: the
 * item comes into being with its first count; otherwise a missing item answers undefined.
 */
async function countInWindow(
  Key: Record<string, string>,
  window: number,
  options: { lastUsedAt?: string; mayCreate: boolean; resetFirst?: boolean },
): Promise<number | undefined> {
  const stamp = options.lastUsedAt ? ', lastUsedAt = :now' : '';
  const ExpressionAttributeValues = { ':one': 1, ':window': window, ...(options.lastUsedAt ? { ':now': options.lastUsedAt } : {}) };
  let reset = options.resetFirst ?? false;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (!reset) {
      try {
        const { Attributes } = await dynamo.send(
          new UpdateCommand({
            TableName: tableName,
            Key,
            UpdateExpression: `SET rlCount = rlCount + :one${stamp}`,
            ConditionExpression: 'rlWindow = :window',
            ExpressionAttributeValues,
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return Attributes!.rlCount as number;
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    reset = false;
    try {
      await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: `SET rlWindow = :window, rlCount = :one${stamp}`,
          ConditionExpression: options.mayCreate
            ? 'attribute_not_exists(rlWindow) OR rlWindow < :window'
            : 'attribute_exists(pk) AND rlWindow < :window',
          ExpressionAttributeValues,
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return 1;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (!options.mayCreate && !error.Item) return undefined;
    }
  }
  throw new Error('Rate-limit window kept changing under concurrent requests');
}

/**
 * Count one failed authentication from `source` (the caller's IP address) in this window and
 * return the count. Its own item, apart from every key: failed attempts brake their source and
 * never spend a real holder's budget. It uses the key counter's attribute names, so the IAM grant
 * of read-only routes (which may change only those attributes) covers it.
 */
export async function recordFailedAuthentication(source: string, window: number): Promise<number> {
  return (await countInWindow(keys.authFailures(source), window, { mayCreate: true }))!;
}

/**
 * Count one OAuth client registration from `source` in this window and return the count: one item
 * per source and window (keys.oauthRegistrations), so the count is always one UpdateItem (no window
 * to reset, whoever registered before), gone by TTL once its window is past.
 */
export async function recordClientRegistration(source: string, window: number, windowSeconds: number): Promise<number> {
  const { Attributes } = await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.oauthRegistrations(source, window),
      UpdateExpression: 'ADD rlCount :one SET #ttl = :ttl',
      ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
      ExpressionAttributeValues: { ':one': 1, ':ttl': (window + 2) * windowSeconds },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Attributes!.rlCount as number;
}
