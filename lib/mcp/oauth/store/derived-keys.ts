/**
 * The OAuth area's writes of derived keys (the entity is the platform's, lib/platform/data/derived-keys.ts,
 * since the key check reads it): made with the code's spending in one transaction, its tokens
 * rotated on refresh (conditional on the refresh token presented, so two refreshes with one token
 * never both win), revoked with its whole family.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { isConditionFailure } from '../../../platform/data/conditions.ts';
import { type DerivedKey, derivedKeyItem, derivedKeyKeys, toDerivedKey } from '../../../platform/data/derived-key-record.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../../platform/data/transact.ts';

/**
 * How many refresh tokens rotated away are remembered (each by 16 hex digits of its hash), to know
 * one presented again: two days of hourly refreshes. The key check reads this item on every request,
 * so it stays small (under 1 KB of them: the item keeps to one read unit); an older one presented
 * again is refused (`invalid_grant`) without revoking the family.
 */
const USED_REFRESH_HASHES = 48;
export const usedRefreshMark = (refreshHash: string) => refreshHash.slice(0, 16);

/** Make the derived key and spend the code, together; false when the code was spent meanwhile. */
export async function createDerivedKey(derived: DerivedKey, spend: TransactWrite): Promise<boolean> {
  try {
    await transact({
      code: spend,
      derived: { Put: { TableName: tableName, Item: derivedKeyItem(derived), ConditionExpression: 'attribute_not_exists(pk)' } },
    });
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('code')) return false;
    throw error;
  }
}

export async function findDerivedKey(workspace: string, parentKeyId: string, id: string): Promise<DerivedKey | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: derivedKeyKeys.item(workspace, parentKeyId, id), ConsistentRead: true }),
  );
  return Item ? toDerivedKey(Item) : null;
}

/** Rotate: new access and refresh hashes, the presented refresh token remembered as used. False when it was not the current one any more. */
export async function rotateDerivedKey(
  derived: DerivedKey,
  next: { accessHash: string; accessExpiresAt: string; refreshHash: string; now: string },
): Promise<boolean> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: derivedKeyKeys.item(derived.workspace, derived.parentKeyId, derived.id),
        UpdateExpression:
          'SET accessHash = :access, accessExpiresAt = :accessUntil, refreshHash = :refresh, refreshedAt = :now, usedRefreshHashes = :used',
        ConditionExpression: 'refreshHash = :presented AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: {
          ':access': next.accessHash,
          ':accessUntil': next.accessExpiresAt,
          ':refresh': next.refreshHash,
          ':now': next.now,
          ':used': [...derived.usedRefreshHashes, usedRefreshMark(derived.refreshHash)].slice(-USED_REFRESH_HASHES),
          ':presented': derived.refreshHash,
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Revoke the family: its access and refresh tokens stop working at once. */
export async function revokeDerivedKey(workspace: string, parentKeyId: string, id: string, now: string): Promise<void> {
  try {
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: derivedKeyKeys.item(workspace, parentKeyId, id),
        UpdateExpression: 'SET revokedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
