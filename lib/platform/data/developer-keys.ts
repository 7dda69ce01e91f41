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
import { type CountedWindows, countedWindowsOf, countInWindow } from './window-counter.ts';
import { toWorkspace, WORKSPACE_COPIES, type Workspace } from './workspace-record.ts';

/**
 * A key as authentication read it: its record, and the requests its counter holds by rate-limit
 * window (`rlWindows`, window number → count; null for a key made before the counter was a map, whose
 * first count makes it).
 */
export interface StoredKey {
  key: DeveloperKey;
  windows: CountedWindows;
}

/** What authentication reads beside the key in its one round trip. */
export interface AuthenticationBeside {
  /** The shard of the workspace's request budget this request counts in (workspace-budget.ts). */
  budgetShard?: TableKey;
  /** A create's remembered Idempotency-Key response (lib/platform/data/idempotency.ts). */
  remembered?: TableKey;
}

/** Authentication's read: the workspace, and what was read beside the key. */
export interface AuthenticationRead {
  /** Null when the copy read is missing: the workspace is gone, or was made before its copies existed (findWorkspaceItself). */
  workspace: Workspace | null;
  /** The budget shard's counter, null when it has none yet. */
  budget: CountedWindows;
  remembered: Record<string, unknown> | undefined;
}

/**
 * One copy of the workspace item, chosen at random (keys.workspaceCopy), the key's items (a
 * Developer key's one; a derived key's and its parent's), and `beside`, in one strongly consistent
 * BatchGetItem: a suspension or a revocation counts from the very next request, and everything
 * authentication needs costs one round trip. A read, not a conditional update: an update naming
 * `secretHash` in its condition would need a grant that also allows `SET secretHash` (README, IAM).
 * Unprocessed keys (throttling) are retried by the data kit's bounded policy.
 */
export async function readForAuthentication(
  workspace: string,
  keyItems: readonly TableKey[],
  beside: AuthenticationBeside,
): Promise<AuthenticationRead & { keyItems: (Record<string, unknown> | undefined)[] }> {
  const [copyItem, ...rest] = await getMany(
    [
      keys.workspaceCopy(workspace, randomInt(WORKSPACE_COPIES)),
      ...keyItems,
      ...(beside.budgetShard ? [beside.budgetShard] : []),
      ...(beside.remembered ? [beside.remembered] : []),
    ],
    { consistent: true },
  );
  const found = rest.splice(0, keyItems.length);
  const budgetItem = beside.budgetShard ? rest.shift() : undefined;
  return {
    workspace: copyItem ? toWorkspace(copyItem) : null,
    keyItems: found,
    budget: countedWindowsOf(budgetItem),
    remembered: rest.shift(),
  };
}

/** The workspace and a Developer key, in authentication's one read (readForAuthentication). */
export async function findWorkspaceAndKey(
  workspace: string,
  keyId: string,
  beside: AuthenticationBeside = {},
): Promise<AuthenticationRead & { key: StoredKey | null }> {
  const { keyItems, ...read } = await readForAuthentication(workspace, [keys.developerKey(workspace, keyId)], beside);
  const [keyItem] = keyItems;
  return { ...read, key: keyItem ? { key: toDeveloperKey(keyItem), windows: countedWindowsOf(keyItem) } : null };
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
 * can neither spend the real holder's budget nor fake a "last used", and return its window's count;
 * undefined when the key was deleted since it was read. One UpdateItem in the window's own entry of
 * the key's counter (window-counter.ts), which no race can make fail: a request still counting in a
 * window that has just ended (its instance read the clock before the turn, or runs a little behind)
 * adds to that window's entry instead of meeting a newer one it could not reset (the 502 "Rate-limit
 * window kept changing" of issue 37). Entries the read saw of windows before the previous one are
 * removed by the same write (the previous one stays for requests still counting in it).
 */
export async function countKeyUse(stored: StoredKey, window: number, now: string): Promise<number | undefined> {
  const outcome = await countInWindow(keys.developerKey(stored.key.workspace, stored.key.id), {
    window: String(window),
    seen: stored.windows,
    stale: Object.keys(stored.windows ?? {}).filter((counted) => Number(counted) < window - 1),
    lastUsedAt: now,
    itemMustExist: true,
  });
  return 'counted' in outcome ? outcome.counted : undefined;
}

/**
 * Count one failed authentication from `source` (the caller's IP address) in this window and
 * return the count. Its own item, apart from every key: failed attempts brake their source and
 * never spend a real holder's budget. A fixed-window counter (`rlWindow`, `rlCount`, names the IAM
 * grant of read-only routes allows) that no race can make give up: the add counts into the stored
 * window when it is this one or a newer one (a request that read the clock before the turn counts
 * in the window that has begun); only a counter of an older window (or none) is reset, on condition
 * that it still is; whoever loses that reset adds instead, and then the stored window is at least
 * this one. Two writes at most, three for the instance that loses a race for the item's creation.
 * No read comes first (an attacker's requests cost one write each), which is why this counter is
 * not a map of windows like a key's (it could not see which windows to remove).
 */
export async function recordFailedAuthentication(source: string, window: number): Promise<number> {
  const Key = keys.authFailures(source);
  const ExpressionAttributeValues = { ':one': 1, ':window': window };
  const add = async () => {
    try {
      const { Attributes } = await dynamo.send(
        new UpdateCommand({
          TableName: tableName,
          Key,
          UpdateExpression: 'SET rlCount = rlCount + :one',
          ConditionExpression: 'rlWindow >= :window',
          ExpressionAttributeValues,
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Attributes?.rlCount as number;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  };
  const added = await add();
  if (added !== undefined) return added;
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key,
        UpdateExpression: 'SET rlWindow = :window, rlCount = :one',
        ConditionExpression: 'attribute_not_exists(rlWindow) OR rlWindow < :window',
        ExpressionAttributeValues,
      }),
    );
    return 1;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  // Another request reset it to this window or a newer one meanwhile: the add now holds.
  return (await add()) ?? 1;
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
