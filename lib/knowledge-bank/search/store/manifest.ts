/**
 * The segment manifest of a workspace's index: one table item (search/entities.ts), changed only
 * by a conditional write on the version the writer read. Two builders of one workspace can run at
 * once (a hot partition's records can be split across stream shards, and a merge can overlap an
 * update): the loser of a race re-reads and re-applies its change, so no segment is ever dropped.
 * fauxqs's S3 has no conditional PutObject (If-Match / If-None-Match), so the guard is here, not
 * on an S3 object; readers follow an S3 copy of it (segments.ts) and never read this item.
 */
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { isConditionFailure } from '../../../platform/data/conditions.ts';
import { kbSearchManifestEntity } from '../entities.ts';
import type { Manifest } from '../segments.ts';

/** The manifest as the table holds it now (strongly consistent), or null before the first build. */
export async function findManifest(workspace: string): Promise<Manifest | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: kbSearchManifestEntity.keys.manifest(workspace), ConsistentRead: true }),
  );
  if (!Item) return null;
  const { format, version, base, deltas } = Item as Manifest;
  return { format, version, base, deltas };
}

/**
 * Writes `next` if the stored manifest is still at `expectedVersion` (null: none stored yet).
 * False when another writer got there first.
 */
export async function commitManifest(workspace: string, next: Manifest, expectedVersion: number | null): Promise<boolean> {
  try {
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        // Exactly SEARCH_MANIFEST_ATTRIBUTES (pipeline.ts): the builder's grant allows no other.
        Item: {
          ...kbSearchManifestEntity.keys.manifest(workspace),
          entity: kbSearchManifestEntity.name,
          format: next.format,
          version: next.version,
          base: next.base,
          deltas: next.deltas,
          updatedAt: new Date().toISOString(),
        },
        ...(expectedVersion === null
          ? { ConditionExpression: 'attribute_not_exists(pk)' }
          : { ConditionExpression: '#version = :expected', ExpressionAttributeNames: { '#version': 'version' } }),
        ...(expectedVersion === null ? {} : { ExpressionAttributeValues: { ':expected': expectedVersion } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deletes the manifest if it is still at `expectedVersion`; false when another writer got there first. */
export async function deleteManifest(workspace: string, expectedVersion: number): Promise<boolean> {
  try {
    await dynamo.send(
      new DeleteCommand({
        TableName: tableName,
        Key: kbSearchManifestEntity.keys.manifest(workspace),
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': expectedVersion },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
