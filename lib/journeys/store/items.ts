/**
 * What every journey access pattern shares: the version key, the metadata projection, the batch
 * read and the transaction wrapper, and the reading of a cancelled transaction's items. Every key
 * is under the workspace's partition (keys.journey*), so another workspace's id is simply not found.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { retryTransactionConflicts } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { descendingIdKey } from '../record.ts';

export type Item = Record<string, unknown>;
export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type RawItem = Record<string, AttributeValue> | undefined;

/** BatchGetItem takes at most 100 keys per call. */
const BATCH_GET_KEYS = 100;
const BATCH_GET_ATTEMPTS = 6;

/** Items asked of one Query page while skipping to an offset. */
export const MAX_ITEMS_PER_QUERY = 1000;

export const COUNTER_ENTITY = 'JourneyCounter';

export const versionKey = (workspace: string, journeyId: string, versionId: string) =>
  keys.journeyVersion(workspace, journeyId, descendingIdKey(versionId));

/** What the reference loader and the metadata reads need: everything but content and diagnostics. */
const METADATA_ATTRIBUTES = [
  'pk',
  'sk',
  'entity',
  'id',
  'journeyId',
  'kind',
  'titleEn',
  'titleAr',
  'parentJourneyId',
  'stageId',
  'publishedVersionId',
  'publishedPairs',
  'pairedBy',
  'versionCount',
  'version',
  'createdAt',
  'updatedAt',
  'archivedAt',
  'label',
  'parentVersionId',
  'createdBy',
  'publishedAt',
  'revision',
  'sourceRevision',
  'legacyOrigin',
  'pairs',
] as const;
export const metadataProjection = {
  ProjectionExpression: METADATA_ATTRIBUTES.map((_, i) => `#m${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(METADATA_ATTRIBUTES.map((name, i) => [`#m${i}`, name])),
};

/** Every item the keys name (in any order), in parallel calls of 100 keys, retrying what DynamoDB left unprocessed. */
export async function batchGet(keyList: readonly Item[], projection: typeof metadataProjection | null): Promise<Item[]> {
  const chunks: Item[][] = [];
  for (let i = 0; i < keyList.length; i += BATCH_GET_KEYS) chunks.push(keyList.slice(i, i + BATCH_GET_KEYS));
  const pages = await Promise.all(
    chunks.map(async (chunk) => {
      const found: Item[] = [];
      let pending: Item[] = chunk;
      for (let attempt = 0; pending.length > 0; attempt++) {
        // Unprocessed keys mean throttling: back off, and give up (a 502) rather than outlive the Lambda timeout.
        if (attempt >= BATCH_GET_ATTEMPTS)
          throw new Error(`BatchGetItem left ${pending.length} keys unprocessed after ${attempt} attempts`);
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await dynamo.send(
          new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true, ...(projection ?? {}) } } }),
        );
        found.push(...(result.Responses?.[tableName] ?? []));
        pending = (result.UnprocessedKeys?.[tableName]?.Keys as Item[] | undefined) ?? [];
      }
      return found;
    }),
  );
  return pages.flat();
}

/** Items by sort key, for picking out the ones a batch asked for. */
export const bySortKey = (items: Item[]) => new Map(items.map((item) => [item.sk as string, item]));

export const prefixed = (values: Record<string, string>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value]));

/** The current item a cancelled transaction returned for item `index` (ALL_OLD), as plain values. */
export function failedItem(
  error: unknown,
  index: number,
): { id?: string; archivedAt?: string; publishedAt?: string; revision?: number; version?: number; versionCount?: number } | null {
  const raw = (error as { CancellationReasons?: { Item?: RawItem }[] }).CancellationReasons?.[index]?.Item;
  if (!raw) return null;
  const number = (name: string) => (raw[name]?.N === undefined ? undefined : Number(raw[name]?.N));
  return {
    id: raw.id?.S,
    archivedAt: raw.archivedAt?.S,
    publishedAt: raw.publishedAt?.S,
    revision: number('revision'),
    version: number('version'),
    versionCount: number('versionCount'),
  };
}

export const failedAt = (reasons: string[] | null, index: number) => reasons?.[index] === 'ConditionalCheckFailed';

export async function transact(items: TransactItems): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })));
}

/** The journey and one version (metadata only, or whole), read together in one BatchGetItem. */
export async function readJourneyAndVersion(workspace: string, journeyId: string, versionId: string, whole: boolean) {
  const journeyKey = keys.journey(workspace, journeyId);
  const key = versionKey(workspace, journeyId, versionId);
  const found = bySortKey(await batchGet([journeyKey, key], whole ? null : metadataProjection));
  return { journey: found.get(journeyKey.sk), version: found.get(key.sk) };
}
