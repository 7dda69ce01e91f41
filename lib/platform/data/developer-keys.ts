/** Access patterns of Developer key items used on the request path. */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { tokenMatchesHash } from '../auth/developer-key-token.ts';
import { getMany, type TableKey } from './batch.ts';
import { dynamo, tableName } from './client.ts';
import { isConditionFailure } from './conditions.ts';
import { type DeveloperKey, toDeveloperKey } from './developer-key-record.ts';
import { keys } from './keys.ts';
import { toWorkspace, type Workspace } from './workspace-record.ts';

/**
 * What one authentication attempt found. `counted`: the secret matched and the request was
 * counted in the key's window. `rejected`: no key of this workspace holds this secret (unknown id,
 * another workspace's key, a wrong or rotated-away secret); nothing of any key was changed.
 */
export type KeyUse = { kind: 'counted'; key: DeveloperKey; requestsInWindow: number } | { kind: 'rejected' };

const REJECTED: KeyUse = { kind: 'rejected' };

/**
 * The workspace and the key, in one strongly consistent BatchGetItem (a suspension or a revocation
 * counts from the very next request), with `also` beside them when given (a create's remembered
 * Idempotency-Key response, lib/platform/data/idempotency.ts), still one round trip. A read, not the
 * conditional update it once was: the update named `secretHash` in its condition, which
 * `dynamodb:Attributes` counts, so the rate-limit grant of read-only routes could not allow it
 * without allowing `SET secretHash` too (README, IAM). Unprocessed keys (throttling) are retried by
 * the data kit's bounded policy.
 */
export async function findWorkspaceAndKey(
  workspace: string,
  keyId: string,
  also?: TableKey,
): Promise<{ workspace: Workspace | null; key: DeveloperKey | null; also: Record<string, unknown> | undefined }> {
  const [workspaceItem, keyItem, alsoItem] = await getMany(
    [keys.workspace(workspace), keys.developerKey(workspace, keyId), ...(also ? [also] : [])],
    {
      consistent: true,
    },
  );
  return { workspace: workspaceItem ? toWorkspace(workspaceItem) : null, key: keyItem ? toDeveloperKey(keyItem) : null, also: alsoItem };
}

/**
 * Count one request against `key`, read by findWorkspaceAndKey, once the presented token matched
 * its hash (so forged secrets can neither spend the real holder's budget nor fake a "last used").
 * The UpdateItem names only the key and the counter's attributes (`rlWindow`, `rlCount`,
 * `lastUsedAt`) and asks back only what it changed: exactly what read-only routes may do to a key
 * item (cdk/constructs/api-function.ts). The counter is a fixed window; the first request of a
 * new window resets it with a second, conditional write, so concurrent instances never lose or
 * double a reset.
 */
export async function recordKeyUse(key: DeveloperKey, token: string, window: number, now: string): Promise<KeyUse> {
  if (!tokenMatchesHash(token, key.secretHash)) return REJECTED;
  const requestsInWindow = await countInWindow(keys.developerKey(key.workspace, key.id), window, { lastUsedAt: now, mayCreate: false });
  // The key was deleted between the read and the count: as if it had never been there.
  return requestsInWindow === undefined ? REJECTED : { kind: 'counted', key, requestsInWindow };
}

/**
 * Add one to an item's fixed-window counter (`rlWindow`, `rlCount`) and return the window's count;
 * the first request of a new window resets it with a second, conditional write, so concurrent
 * instances never lose or double a reset. `lastUsedAt` stamps the item when given. `mayCreate`:
 * the item comes into being with its first count; otherwise a missing item answers undefined.
 */
async function countInWindow(
  Key: Record<string, string>,
  window: number,
  options: { lastUsedAt?: string; mayCreate: boolean },
): Promise<number | undefined> {
  const stamp = options.lastUsedAt ? ', lastUsedAt = :now' : '';
  const ExpressionAttributeValues = { ':one': 1, ':window': window, ...(options.lastUsedAt ? { ':now': options.lastUsedAt } : {}) };
  for (let attempt = 0; attempt < 3; attempt++) {
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
