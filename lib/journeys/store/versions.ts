/**
 * Versions: `JOURNEY#<journeyId>#V#<complement of id>` items, content and diagnostics compressed
 * (Binary), `pairs` uncompressed for the reference loader. Reads: one version, a page of them after
 * their journey in one ascending Query, and two of them in one BatchGetItem.
 */

import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, type Item } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { itemBytes } from '../../platform/data/item-size.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import type { PairTarget } from '../cycles.ts';
import { journeyEntity, journeyVersionEntity } from '../entities.ts';
import { journeyNotFound, versionNotFound } from '../errors.ts';
import { bindingsFromAttribute, type ResolvedBinding } from '../metric-bindings.ts';
import { DIAGNOSTICS_LIMITS, estimatedResponseBytes, pairsAttribute, toVersion, type VersionMetadata } from '../record.ts';
import type { JourneyVersion } from '../schemas.ts';
import { MAX_ITEMS_PER_QUERY } from './items.ts';

/** Lambda's response limit is 6 MB; a versions page stops before its versions pass this. */
const VERSIONS_PAGE_BYTES = 5 * 1024 * 1024;

/** GetItem; the journey id is part of the key, so a version of another journey is not found. */
export async function getVersion(workspace: string, journeyId: string, versionId: string): Promise<JourneyVersion> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: journeyVersionEntity.keys.version(workspace, journeyId, versionId), ConsistentRead: true }),
  );
  if (!Item) throw versionNotFound();
  return toVersion(Item);
}

/** GetItem of a version, with the answer ranges of its bound metric cells as resolved at its last save or publish. */
export async function getVersionWithBindings(
  workspace: string,
  journeyId: string,
  versionId: string,
): Promise<{ version: JourneyVersion; bindings: ResolvedBinding[] }> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: journeyVersionEntity.keys.version(workspace, journeyId, versionId), ConsistentRead: true }),
  );
  if (!Item) throw versionNotFound();
  return { version: toVersion(Item), bindings: bindingsFromAttribute(Item.bindings) };
}

export interface VersionPage {
  versions: JourneyVersion[];
  total: number;
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

/**
 * One ascending Query over the journey's item collection: the journey first (404, total), then its
 * versions newest first (their sort keys are complemented UUIDv7s). A page also stops before the
 * versions it holds would pass 5 MB, so the response stays under Lambda's 6 MB; `hasMore` then
 * says more follow from `offset + versions.length`.
 */
export async function listVersions(workspace: string, journeyId: string, { limit, offset, after }: PageStart): Promise<VersionPage> {
  const journeySk = journeyEntity.keys.journey(workspace, journeyId).sk;
  if (after && (after.pk !== workspacePk(workspace) || !String(after.sk).startsWith(`${journeySk}#V#`))) {
    throw new Error("A cursor for versions named a key outside the journey's versions");
  }
  // From a cursor the Query starts past the journey item, so the journey (404, total) is read beside it.
  const journey = after
    ? dynamo.send(
        new GetCommand({
          TableName: tableName,
          Key: journeyEntity.keys.journey(workspace, journeyId),
          ConsistentRead: true,
          ProjectionExpression: 'versionCount',
        }),
      )
    : undefined;
  const skip = after ? 0 : offset;
  let total: number | undefined;
  let skipped = 0;
  let bytes = 0;
  let cutBySize = false;
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined = after;
  do {
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :collection)',
        ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':collection': journeySk },
        ConsistentRead: true,
        Limit: Math.min(skip + limit - skipped - page.length + (total === undefined && !after ? 1 : 0), MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (item.sk === journeySk) total = Number(item.versionCount);
      else if (skipped < skip) skipped++;
      else if (page.length < limit && !cutBySize) {
        const size = estimatedResponseBytes(item);
        if (page.length > 0 && bytes + size > VERSIONS_PAGE_BYTES) cutBySize = true;
        else {
          bytes += size;
          page.push(item);
        }
      }
    }
    if (journey && total === undefined) {
      const { Item } = await journey;
      if (Item) total = Number(Item.versionCount);
    }
    if (total === undefined) throw journeyNotFound();
    cursor = LastEvaluatedKey;
    if (offset >= total) break;
  } while (cursor && !cutBySize && skipped + page.length < skip + limit);
  const last = page.at(-1);
  return {
    versions: page.map(toVersion),
    total,
    hasMore: offset + page.length < total,
    lastKey: last && { pk: last.pk as string, sk: last.sk as string },
    returned: page.length,
  };
}

/** What a version item stores beside its metadata. */
export interface VersionParts {
  content: Uint8Array;
  contentBytes: number;
  diagnostics: Uint8Array;
  diagnosticsBytes: number;
  pairs: readonly PairTarget[];
}

export function newVersionItem(
  workspace: string,
  metadata: VersionMetadata,
  { content, contentBytes, diagnostics, diagnosticsBytes, pairs }: VersionParts,
): Item {
  // A null is no attribute at all, never a NULL: `attribute_not_exists(publishedAt)` must hold for a draft.
  const present = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== null));
  return {
    ...journeyVersionEntity.keys.version(workspace, metadata.journeyId, metadata.id),
    entity: journeyVersionEntity.name,
    ...present,
    content,
    contentBytes,
    diagnostics,
    diagnosticsBytes,
    pairs: pairsAttribute(pairs),
  };
}

/** What a version item holds that depends on its content. */
export interface ContentParts {
  content: Uint8Array;
  contentBytes: number;
  pairs: readonly PairTarget[];
  /** The `bindings` attribute, or the largest it can become once the bound cells resolve. */
  bindings: string;
}

const SOME_ID = 'ffffffff-ffff-7fff-bfff-ffffffffffff';
const SOME_TIME = '2099-12-31T23:59:59.999Z';

/**
 * The bytes of the largest item a version holding `parts` can become, by DynamoDB's rules
 * (lib/platform/data/item-size.ts): its own keys and metadata at their longest (a 63-character
 * workspace, a 100-character label of 4-byte characters, published, branched), diagnostics at their
 * cap (publish writes them afresh, a branch copies them), `pairs` and `bindings`. A content save
 * that keeps this within DynamoDB's item limit can never be the cause of a later publish, relabel or
 * branch failing on it. Pure: no read.
 */
export function largestVersionItemBytes(parts: ContentParts): number {
  const metadata: VersionMetadata = {
    id: SOME_ID,
    journeyId: SOME_ID,
    label: '𝌆'.repeat(100),
    parentVersionId: SOME_ID,
    createdBy: 'k'.repeat(64),
    createdAt: SOME_TIME,
    updatedAt: SOME_TIME,
    publishedAt: SOME_TIME,
    revision: Number.MAX_SAFE_INTEGER,
    sourceRevision: Number.MAX_SAFE_INTEGER,
    legacyOrigin: null,
  };
  const item = newVersionItem('w'.repeat(63), metadata, {
    content: parts.content,
    contentBytes: parts.contentBytes,
    diagnostics: new Uint8Array(DIAGNOSTICS_LIMITS.compressed),
    diagnosticsBytes: DIAGNOSTICS_LIMITS.raw,
    pairs: parts.pairs,
  });
  return itemBytes({ ...item, bindings: parts.bindings });
}

/** Two versions of a journey in one BatchGetItem (getMany reads a repeated key once, so a version diffed against itself is one key). */
export async function readVersionPair(
  workspace: string,
  journeyId: string,
  versionId: string,
  otherId: string,
): Promise<(Item | undefined)[]> {
  return getMany([
    journeyVersionEntity.keys.version(workspace, journeyId, versionId),
    journeyVersionEntity.keys.version(workspace, journeyId, otherId),
  ]);
}
