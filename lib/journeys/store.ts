/**
 * Access patterns of journeys and their versions. Every key is under the workspace's partition
 * (keys.journey*), so another workspace's id is simply not found. Items:
 *   journey   `JOURNEY#<id>`: metadata, `publishedPairs` (the pairs its published version follows),
 *             `pairedBy` (string set: journeys whose published version pairs this one), and while
 *             active a gsi1 listing entry. Never deleted: DELETE archives it.
 *   version   `JOURNEY#<journeyId>#V#<complement of id>`: metadata, content and diagnostics
 *             compressed (Binary), `pairs` uncompressed for the reference loader.
 *   counter   `JOURNEYCOUNT`: active macro and micro journeys, listed first in gsi1.
 * Round trips (besides auth): reads 1; save and validate 1 + one per further level of paired
 * journeys, then the write; publish 1 read + the levels + the write; see the README for each.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../platform/data/client.ts';
import {
  isConditionFailure,
  meetsPrecondition,
  retryTransactionConflicts,
  transactionCancellationReasons,
  type VersionPrecondition,
  versionCondition,
} from '../platform/data/conditions.ts';
import { type IdempotentRequest, transactCreate } from '../platform/data/idempotency.ts';
import { keys } from '../platform/data/keys.ts';
import { BadRequestError, ConflictError, ContentTooLargeError, VersionConflictError } from '../platform/errors.ts';
import type { PageKey, PageStart } from '../platform/pagination.ts';
import { lookUpSurveyQuestions } from '../surveys/question-lookup.ts';
import { decodeJson, encodeContent } from './codec.ts';
import { emptyJourneyContent, type JourneyContent } from './content.ts';
import type { PairTarget } from './cycles.ts';
import {
  type Diagnostic,
  diagnoseContent,
  followedPairs,
  type JourneyFacts,
  linkFactsKey,
  linkRefsOf,
  pairTargetsOf,
  type ReferenceFacts,
  type VersionFacts,
  versionFactsKey,
} from './diagnostics.ts';
import { diffContent, type JourneyDiff } from './diff.ts';
import { journeyArchived, journeyInUse, journeyNotFound, lastVersion, versionLocked, versionNotFound } from './errors.ts';
import {
  bindingsAttribute,
  bindingsFromAttribute,
  boundCellsOf,
  followedBindingsOf,
  type ResolvedBinding,
  resolvedBindingsOf,
} from './metric-bindings.ts';
import {
  descendingIdKey,
  estimatedResponseBytes,
  JOURNEY_ENTITY,
  newJourneyId,
  pairsAttribute,
  pairsFromAttribute,
  storedDiagnostics,
  toJourney,
  toVersion,
  toVersionMetadata,
  VERSION_ENTITY,
  type VersionMetadata,
} from './record.ts';
import type { Journey, JourneyVersion } from './schemas.ts';
import { METRIC_BINDING_ENTITY } from './survey-bindings.ts';

type Item = Record<string, unknown>;
type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type RawItem = Record<string, AttributeValue> | undefined;

/** Lambda's response limit is 6 MB; a versions page stops before its versions pass this. */
const VERSIONS_PAGE_BYTES = 5 * 1024 * 1024;
/** BatchGetItem takes at most 100 keys per call. */
const BATCH_GET_KEYS = 100;
const BATCH_GET_ATTEMPTS = 6;
/**
 * Levels of paired journeys followed for one save or publish: each is a round trip, and a chain
 * deeper than this is reported (`pairs_too_deep`) rather than walked until the Lambda times out.
 */
const MAX_REFERENCE_LEVELS = 32;
/** Items asked of one Query page while skipping to an offset. */
const MAX_ITEMS_PER_QUERY = 1000;
/** Link kinds whose records can be looked up by key; surveys are not stored yet. */
const CHECKED_LINK_KINDS = new Set(['idea', 'sop', 'journey'] as const);

const COUNTER_ENTITY = 'JourneyCounter';

const versionKey = (slug: string, journeyId: string, versionId: string) => keys.journeyVersion(slug, journeyId, descendingIdKey(versionId));

/** Names of version attributes in expressions (some, like `diagnostics`, are DynamoDB reserved words). */
const VERSION_NAMES = { '#content': 'content', '#diagnostics': 'diagnostics', '#pairs': 'pairs', '#revision': 'revision' };

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
const metadataProjection = {
  ProjectionExpression: METADATA_ATTRIBUTES.map((_, i) => `#m${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(METADATA_ATTRIBUTES.map((name, i) => [`#m${i}`, name])),
};

// ---------------------------------------------------------------------------------------------
// Reads

/** GetItem, strongly consistent. */
export async function getJourney(slug: string, journeyId: string): Promise<Journey> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.journey(slug, journeyId), ConsistentRead: true }));
  if (!Item) throw journeyNotFound();
  return toJourney(Item);
}

/** GetItem; the journey id is part of the key, so a version of another journey is not found. */
export async function getVersion(slug: string, journeyId: string, versionId: string): Promise<JourneyVersion> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: versionKey(slug, journeyId, versionId), ConsistentRead: true }),
  );
  if (!Item) throw versionNotFound();
  return toVersion(Item);
}

/** GetItem of a version, with the answer ranges of its bound metric cells as resolved at its last save or publish. */
export async function getVersionWithBindings(
  slug: string,
  journeyId: string,
  versionId: string,
): Promise<{ version: JourneyVersion; bindings: ResolvedBinding[] }> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: versionKey(slug, journeyId, versionId), ConsistentRead: true }),
  );
  if (!Item) throw versionNotFound();
  return { version: toVersion(Item), bindings: bindingsFromAttribute(Item.bindings) };
}

/** Every item the keys name (in any order), in parallel calls of 100 keys, retrying what DynamoDB left unprocessed. */
async function batchGet(keyList: readonly Item[], projection: typeof metadataProjection | null): Promise<Item[]> {
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
const bySortKey = (items: Item[]) => new Map(items.map((item) => [item.sk as string, item]));

export interface JourneyPage {
  journeys: Journey[];
  total: number;
  hasMore: boolean;
  /** Where a cursor continues (lib/platform/pagination.ts): the last journey's table and gsi1 keys. */
  lastKey: PageKey | undefined;
  returned: number;
}

/** A listed journey's table and gsi1 keys, which a gsi1 Query's ExclusiveStartKey needs. */
function listingKeyOf(item: Item | undefined): PageKey | undefined {
  return item && { pk: item.pk as string, sk: item.sk as string, gsi1pk: item.gsi1pk as string, gsi1sk: item.gsi1sk as string };
}

/** The total the filter selects, from the counter item's two counts. */
function journeyTotal(counter: Item | undefined, kind: 'macro' | 'micro' | undefined): number {
  const macro = Number(counter?.macroCount ?? 0);
  const micro = Number(counter?.microCount ?? 0);
  return Math.max(0, kind === 'macro' ? macro : kind === 'micro' ? micro : macro + micro);
}

/**
 * Active journeys, newest first, from gsi1 (archived ones leave it). The counter sorts first in
 * the descending range and gives the total in the same Query; a `kind` filter is applied by
 * DynamoDB, so skipping to an offset reads the journeys of the other kind too.
 */
export async function listJourneys(
  slug: string,
  { limit, offset, after, kind }: PageStart & { kind?: 'macro' | 'micro' | undefined },
): Promise<JourneyPage> {
  if (after) return listJourneysAfter(slug, limit, after, kind);
  const wanted = offset + limit + 1;
  const counterSk = keys.journeyCounterListing(slug).gsi1sk;
  let total: number | undefined;
  let skipped = 0;
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.journeyListingPk(slug), ...(kind ? { ':kind': kind, ':counter': COUNTER_ENTITY } : {}) },
        // The counter must pass the filter too (an index key cannot appear in a filter, so its entity is used).
        ...(kind ? { FilterExpression: '#kind = :kind OR entity = :counter', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
        ScanIndexForward: false,
        Limit: Math.min(wanted - skipped - page.length + (total === undefined ? 1 : 0), MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (item.gsi1sk === counterSk) total = journeyTotal(item, kind);
      else if (skipped < offset) skipped++;
      else if (page.length < limit + 1) page.push(item);
    }
    total ??= 0; // no counter first means no journey was ever made
    cursor = LastEvaluatedKey;
    if (offset >= total) break;
  } while (cursor && skipped + page.length < wanted);
  const shown = page.slice(0, limit);
  return {
    journeys: shown.map(toJourney),
    total,
    hasMore: page.length > limit,
    lastKey: listingKeyOf(shown.at(-1)),
    returned: shown.length,
  };
}

/**
 * The page after a cursor's journey: gsi1 from that key on, `limit + 1` journeys the filter selects
 * (the extra one tells whether more follow), and the counter read beside it for the total.
 */
async function listJourneysAfter(slug: string, limit: number, after: PageKey, kind: 'macro' | 'micro' | undefined): Promise<JourneyPage> {
  if (after.gsi1pk !== keys.journeyListingPk(slug) || after.pk !== keys.workspacePk(slug)) {
    throw new Error("A cursor for journeys named a key outside the workspace's journey listing");
  }
  const counter = dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.journeyCounter(slug), ProjectionExpression: 'macroCount, microCount' }),
  );
  const page: Item[] = [];
  let cursor: Record<string, unknown> | undefined = after;
  do {
    const { Items = [], LastEvaluatedKey }: { Items?: Item[]; LastEvaluatedKey?: Record<string, unknown> } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.journeyListingPk(slug), ...(kind ? { ':kind': kind } : {}) },
        ...(kind ? { FilterExpression: '#kind = :kind', ExpressionAttributeNames: { '#kind': 'kind' } } : {}),
        ScanIndexForward: false,
        // Below a journey's key there is no counter: every item read is a journey (the filter may drop some).
        Limit: limit + 1 - page.length,
        ExclusiveStartKey: cursor,
      }),
    );
    page.push(...Items);
    cursor = LastEvaluatedKey;
  } while (cursor && page.length < limit + 1);
  const shown = page.slice(0, limit);
  return {
    journeys: shown.map(toJourney),
    total: journeyTotal((await counter).Item, kind),
    hasMore: page.length > limit,
    lastKey: listingKeyOf(shown.at(-1)),
    returned: shown.length,
  };
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
export async function listVersions(slug: string, journeyId: string, { limit, offset, after }: PageStart): Promise<VersionPage> {
  const journeySk = keys.journey(slug, journeyId).sk;
  if (after && (after.pk !== keys.workspacePk(slug) || !String(after.sk).startsWith(`${journeySk}#V#`))) {
    throw new Error("A cursor for versions named a key outside the journey's versions");
  }
  // From a cursor the Query starts past the journey item, so the journey (404, total) is read beside it.
  const journey = after
    ? dynamo.send(
        new GetCommand({
          TableName: tableName,
          Key: keys.journey(slug, journeyId),
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
        ExpressionAttributeValues: { ':pk': keys.workspacePk(slug), ':collection': journeySk },
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

// ---------------------------------------------------------------------------------------------
// References: what diagnostics need to know about the workspace, read level by level

/**
 * Loads the facts the content's references need: level 1 is every journey its pairs name, every
 * pinned version and every linked record, in one BatchGetItem (plus `alsoGet`, the caller's own
 * items, in that same round); each further level follows the pairs of what the previous one found,
 * until nothing new is named. One round per level of paired journeys.
 */
async function loadReferenceFacts(slug: string, content: JourneyContent, alsoGet: readonly Item[] = []) {
  // Bound surveys are looked up beside the reference levels (two rounds of their own, in parallel).
  const sources = boundCellsOf(content).map((bound) => bound.source);
  const surveysRead = sources.length > 0 ? lookUpSurveyQuestions(slug, sources) : Promise.resolve(new Map());
  // Awaited below; this only keeps a failure from going unhandled while a reference level fails first.
  surveysRead.catch(() => undefined);
  const journeys = new Map<string, JourneyFacts>();
  const versions = new Map<string, VersionFacts>();
  const existingLinks = new Set<string>();
  const requested = new Set<string>();
  const linkBySortKey = new Map<string, string>();
  const facts: ReferenceFacts & { depthLimit?: number } = { journeys, versions, existingLinks, checkedLinkKinds: CHECKED_LINK_KINDS };

  const keysFor = (targets: readonly PairTarget[]) => {
    const wanted: Item[] = [];
    const want = (key: { pk: string; sk: string }) => {
      if (requested.has(key.sk)) return;
      requested.add(key.sk);
      wanted.push(key);
    };
    for (const target of targets) {
      want(keys.journey(slug, target.journeyId));
      if (target.versionId !== undefined) want(versionKey(slug, target.journeyId, target.versionId));
    }
    return { wanted, want };
  };

  const first = keysFor(pairTargetsOf(content));
  for (const ref of linkRefsOf(content)) {
    const key =
      ref.kind === 'idea'
        ? keys.idea(slug, ref.id)
        : ref.kind === 'sop'
          ? keys.sop(slug, ref.id)
          : ref.kind === 'journey'
            ? keys.journey(slug, ref.id)
            : null;
    if (!key) continue;
    linkBySortKey.set(key.sk, linkFactsKey(ref.kind, ref.id));
    first.want(key);
  }
  const own = new Map<string, Item>();
  const ownKeys = new Set(alsoGet.map((key) => key.sk as string));
  let batch = [...alsoGet.filter((key) => !requested.has(key.sk as string)), ...first.wanted];
  const followed = new Set<string>();
  const notYetFollowed = (target: PairTarget) => {
    const id = `${target.journeyId}/${target.versionId ?? ''}`;
    if (followed.has(id)) return false;
    followed.add(id);
    return true;
  };
  let frontier: PairTarget[] = pairTargetsOf(content).filter(notYetFollowed);

  for (let level = 1; batch.length > 0; level++) {
    if (level > MAX_REFERENCE_LEVELS) {
      facts.depthLimit = MAX_REFERENCE_LEVELS;
      break;
    }
    const found = await batchGet(batch, metadataProjection);
    for (const item of found) {
      const sk = item.sk as string;
      if (ownKeys.has(sk)) own.set(sk, item);
      const link = linkBySortKey.get(sk);
      if (link) existingLinks.add(link);
      if (item.entity === JOURNEY_ENTITY) {
        journeys.set(item.id as string, {
          kind: item.kind as 'macro' | 'micro',
          archived: typeof item.archivedAt === 'string',
          publishedVersionId: (item.publishedVersionId as string | undefined) ?? null,
          publishedPairs: pairsFromAttribute(item.publishedPairs),
        });
      } else if (item.entity === VERSION_ENTITY) {
        versions.set(versionFactsKey(item.journeyId as string, item.id as string), {
          published: typeof item.publishedAt === 'string',
          pairs: pairsFromAttribute(item.pairs),
        });
      }
    }
    frontier = frontier.flatMap((target) => followedPairs(facts, target) ?? []).filter(notYetFollowed);
    batch = keysFor(frontier).wanted;
  }
  facts.surveys = await surveysRead;
  return { facts, own };
}

// ---------------------------------------------------------------------------------------------
// Writes

export interface JourneyCreation {
  kind: 'macro' | 'micro';
  titleEn: string | null;
  titleAr: string | null;
  parentJourneyId: string | null;
  stageId: string | null;
}

interface StoredParts {
  content: Uint8Array;
  contentBytes: number;
  diagnostics: Uint8Array;
  diagnosticsBytes: number;
  pairs: readonly PairTarget[];
}

function newVersionItem(
  slug: string,
  metadata: VersionMetadata,
  { content, contentBytes, diagnostics, diagnosticsBytes, pairs }: StoredParts,
): Item {
  // A null is no attribute at all, never a NULL: `attribute_not_exists(publishedAt)` must hold for a draft.
  const present = Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== null));
  return {
    ...versionKey(slug, metadata.journeyId, metadata.id),
    entity: VERSION_ENTITY,
    ...present,
    content,
    contentBytes,
    diagnostics,
    diagnosticsBytes,
    pairs: pairsAttribute(pairs),
  };
}

/**
 * A journey with its first draft (`Draft 1`, empty content) and its count, in one transaction; a
 * micro journey also checks that its parent exists and is not archived, in the same transaction.
 */
export async function createJourney(
  slug: string,
  creation: JourneyCreation,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ response: { journeyId: string; version: JourneyVersion }; replayed: boolean }> {
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const journeyId = newJourneyId(nowMs);
  const content = emptyJourneyContent();
  const encoded = encodeContent(content);
  if (!encoded.ok) throw new Error('empty content must encode');
  const diagnostics = storedDiagnostics([]);
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: 'Draft 1',
    parentVersionId: null,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: null,
    legacyOrigin: null,
  };
  const journeyItem = {
    ...keys.journey(slug, journeyId),
    ...keys.journeyListing(slug, journeyId),
    entity: JOURNEY_ENTITY,
    id: journeyId,
    kind: creation.kind,
    titleEn: creation.titleEn ?? undefined,
    titleAr: creation.titleAr ?? undefined,
    parentJourneyId: creation.parentJourneyId ?? undefined,
    stageId: creation.stageId ?? undefined,
    versionCount: 1,
    version: 1,
    createdAt: now,
    updatedAt: now,
    createdBy: keyId,
  };
  const writes: TransactItems = [];
  if (creation.parentJourneyId) {
    writes.push({
      ConditionCheck: {
        TableName: tableName,
        Key: keys.journey(slug, creation.parentJourneyId),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
  }
  writes.push(
    { Put: { TableName: tableName, Item: journeyItem, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Put: {
        TableName: tableName,
        Item: newVersionItem(slug, metadata, {
          content: encoded.compressed,
          contentBytes: encoded.rawBytes,
          diagnostics: diagnostics.bytes,
          diagnosticsBytes: diagnostics.rawBytes,
          pairs: [],
        }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.journeyCounter(slug),
        UpdateExpression: 'SET entity = :entity, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk ADD #count :one',
        ExpressionAttributeNames: { '#count': `${creation.kind}Count` },
        ExpressionAttributeValues: { ':entity': COUNTER_ENTITY, ':one': 1, ...prefixed(keys.journeyCounterListing(slug)) },
      },
    },
  );
  const response = { journeyId, version: { ...metadata, content, diagnostics: diagnostics.kept } };
  try {
    return await transactCreate(slug, writes, response, idempotency);
  } catch (error) {
    if (creation.parentJourneyId && transactionCancellationReasons(error)?.[0] === 'ConditionalCheckFailed') {
      throw failedItem(error, 0)?.id ? journeyArchived() : journeyNotFound();
    }
    throw error;
  }
}

const prefixed = (values: Record<string, string>) => Object.fromEntries(Object.entries(values).map(([name, value]) => [`:${name}`, value]));

/** The current item a cancelled transaction returned for item `index` (ALL_OLD), as plain values. */
function failedItem(
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

const failedAt = (reasons: string[] | null, index: number) => reasons?.[index] === 'ConditionalCheckFailed';

export interface JourneyTitles {
  titleEn?: string | null | undefined;
  titleAr?: string | null | undefined;
}

/**
 * Titles in one conditional UpdateItem, no read first: the journey must exist, not be archived,
 * match If-Match, and keep at least one title. A failed condition returns the item, which says which.
 */
export async function updateJourneyTitles(
  slug: string,
  journeyId: string,
  titles: JourneyTitles,
  precondition: VersionPrecondition,
): Promise<Journey> {
  const names: Record<string, string> = { '#version': 'version' };
  const values: Record<string, unknown> = { ':one': 1, ':now': new Date().toISOString() };
  const set = ['#version = #version + :one', 'updatedAt = :now'];
  const remove: string[] = [];
  const keepsTitle: string[] = [];
  for (const field of ['titleEn', 'titleAr'] as const) {
    const value = titles[field];
    if (value === undefined) keepsTitle.push(`attribute_exists(${field})`);
    else if (value === null) remove.push(field);
    else {
      values[`:${field}`] = value;
      set.push(`${field} = :${field}`);
    }
  }
  const setsATitle = titles.titleEn || titles.titleAr;
  const titleCondition = setsATitle ? '' : ` AND (${keepsTitle.length > 0 ? keepsTitle.join(' OR ') : 'attribute_not_exists(pk)'})`;
  const version = versionCondition(precondition);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.journey(slug, journeyId),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(archivedAt)${version.expression}${titleCondition}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...version.values },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toJourney(Attributes!);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const current = error.Item as RawItem;
    if (!current) throw journeyNotFound();
    if (current.archivedAt) throw journeyArchived();
    const at = Number(current.version?.N);
    if (!meetsPrecondition(precondition, at)) throw new VersionConflictError(at);
    throw new BadRequestError('invalid_body', 'A journey keeps at least one title: this change would remove the last one', [
      { path: 'body', message: 'removes the last title; set `titleEn` or `titleAr`' },
    ]);
  }
}

/**
 * Archive: the journey leaves the list (its gsi1 entry is removed and the count drops) and stops
 * pairing others, in one transaction. Refused while another unarchived journey's published
 * version pairs it (`pairedBy`, kept by publish and archive). One read first, for its pairs.
 */
export async function archiveJourney(slug: string, journeyId: string, precondition: VersionPrecondition, attempt = 1): Promise<void> {
  const journey = await getJourneyItem(slug, journeyId);
  assertActive(journey);
  const at = Number(journey.version);
  if (!meetsPrecondition(precondition, at)) throw new VersionConflictError(at);
  const pairedBy = [...((journey.pairedBy as Set<string> | undefined) ?? [])];
  if (pairedBy.length > 0) throw journeyInUse(pairedBy);

  const now = new Date().toISOString();
  const unpaired = distinctJourneys(pairsFromAttribute(journey.publishedPairs)).filter((id) => id !== journeyId);
  try {
    await transact([
      {
        Update: {
          TableName: tableName,
          Key: keys.journey(slug, journeyId),
          UpdateExpression: 'SET archivedAt = :now, updatedAt = :now, #version = #version + :one REMOVE gsi1pk, gsi1sk',
          ConditionExpression:
            'attribute_exists(pk) AND attribute_not_exists(archivedAt) AND attribute_not_exists(pairedBy) AND #version = :read',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':now': now, ':one': 1, ':read': at },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.journeyCounter(slug),
          UpdateExpression: 'ADD #count :minusOne',
          ExpressionAttributeNames: { '#count': `${journey.kind as string}Count` },
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
      ...unpaired.map((pairedId) => stopPairing(slug, pairedId, journeyId)),
    ]);
  } catch (error) {
    if (failedAt(transactionCancellationReasons(error), 0)) {
      // The journey changed between the read and the write: decide again on what it is now. With
      // If-Match that answers 409 at once; without, a rename in between is no reason to refuse.
      if (attempt < 3) return archiveJourney(slug, journeyId, precondition, attempt + 1);
      throw new ConflictError('version_conflict', 'The journey kept changing while archiving it; try again');
    }
    throw error;
  }
}

async function getJourneyItem(slug: string, journeyId: string): Promise<Item> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.journey(slug, journeyId), ConsistentRead: true }));
  if (!Item) throw journeyNotFound();
  return Item;
}

function assertActive(journey: Item | undefined): asserts journey is Item {
  if (!journey) throw journeyNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
}

const distinctJourneys = (pairs: readonly PairTarget[]) => [...new Set(pairs.map((pair) => pair.journeyId))];

function stopPairing(slug: string, pairedId: string, pairerId: string): TransactItems[number] {
  return {
    Update: {
      TableName: tableName,
      Key: keys.journey(slug, pairedId),
      UpdateExpression: 'DELETE pairedBy :pairer',
      // Never create an item: a journey that is gone has nothing to forget.
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':pairer': new Set([pairerId]) },
    },
  };
}

function startPairing(slug: string, pairedId: string, pairerId: string): TransactItems[number] {
  return {
    Update: {
      TableName: tableName,
      Key: keys.journey(slug, pairedId),
      UpdateExpression: 'ADD pairedBy :pairer',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
      ExpressionAttributeValues: { ':pairer': new Set([pairerId]) },
    },
  };
}

async function transact(items: TransactItems): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })));
}

/** The journey and one version (metadata only, or whole), read together in one BatchGetItem. */
async function readJourneyAndVersion(slug: string, journeyId: string, versionId: string, whole: boolean) {
  const journeyKey = keys.journey(slug, journeyId);
  const key = versionKey(slug, journeyId, versionId);
  const found = bySortKey(await batchGet([journeyKey, key], whole ? null : metadataProjection));
  return { journey: found.get(journeyKey.sk), version: found.get(key.sk) };
}

/** The checks every version write makes, in the issue's order: 404, archived, published. */
function assertWritable(journey: Item | undefined, version: Item | undefined): asserts version is Item {
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') throw versionLocked();
}

/** Then If-Match: required where `required`, and never stale. */
function assertRevision(precondition: VersionPrecondition, revision: number, required: boolean) {
  if (required && !precondition)
    throw new BadRequestError('if_match_required', 'Send If-Match with the version\'s ETag (its revision, e.g. "3") to change it');
  if (!meetsPrecondition(precondition, revision)) throw new VersionConflictError(revision);
}

/** Maps a cancelled [journey check, version write] transaction to the answer the issue orders. */
function versionWriteFailure(error: unknown): Error {
  const reasons = transactionCancellationReasons(error);
  if (failedAt(reasons, 0)) return failedItem(error, 0) ? journeyArchived() : journeyNotFound();
  if (failedAt(reasons, 1)) {
    const current = failedItem(error, 1);
    if (!current) return versionNotFound();
    if (current.publishedAt) return versionLocked();
    return new VersionConflictError(current.revision ?? 0);
  }
  return error as Error;
}

const journeyStillActive = (slug: string, journeyId: string): TransactItems[number] => ({
  ConditionCheck: {
    TableName: tableName,
    Key: keys.journey(slug, journeyId),
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  },
});

function encodeOrThrow(content: JourneyContent) {
  const encoded = encodeContent(content);
  if (!encoded.ok) {
    throw new ContentTooLargeError(
      encoded.limit === 'rawBytes'
        ? `content is ${encoded.bytes} bytes of JSON; at most 1048576 are accepted`
        : `content compresses to ${encoded.bytes} bytes; a version holds at most ${350 * 1024} compressed`,
    );
  }
  return encoded;
}

/**
 * PUT content: 413 when it does not fit, then one BatchGetItem for the journey, the version and the
 * first level of references, further levels as needed, then one transaction that writes the
 * version only if it is still at the revision read (so of two saves with the same If-Match exactly
 * one wins) and the journey is still active.
 */
export async function saveContent(
  slug: string,
  journeyId: string,
  versionId: string,
  content: JourneyContent,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const encoded = encodeOrThrow(content);
  const journeyKey = keys.journey(slug, journeyId);
  const key = versionKey(slug, journeyId, versionId);
  const { facts, own } = await loadReferenceFacts(slug, content, [journeyKey, key]);
  const version = own.get(key.sk);
  assertWritable(own.get(journeyKey.sk), version);
  const read = Number(version.revision);
  assertRevision(precondition, read, true);

  const diagnostics = storedDiagnostics(diagnoseContent(content, facts, journeyId));
  const now = new Date().toISOString();
  try {
    await transact([
      journeyStillActive(slug, journeyId),
      {
        Update: {
          TableName: tableName,
          Key: key,
          UpdateExpression:
            'SET #content = :content, contentBytes = :contentBytes, #diagnostics = :diagnostics, diagnosticsBytes = :diagnosticsBytes, ' +
            '#pairs = :pairs, bindings = :bindings, #revision = #revision + :one, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
          ExpressionAttributeNames: VERSION_NAMES,
          ExpressionAttributeValues: {
            ':content': encoded.compressed,
            ':contentBytes': encoded.rawBytes,
            ':diagnostics': diagnostics.bytes,
            ':diagnosticsBytes': diagnostics.rawBytes,
            ':pairs': pairsAttribute(pairTargetsOf(content)),
            ':bindings': bindingsAttribute(resolvedBindingsOf(content, facts.surveys ?? new Map())),
            ':one': 1,
            ':now': now,
            ':read': read,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
  } catch (error) {
    throw versionWriteFailure(error);
  }
  return { ...toVersionMetadata(version), revision: read + 1, updatedAt: now, content, diagnostics: diagnostics.kept };
}

/** PATCH label: one read (the version is returned whole), then the label, without touching `revision`. */
export async function relabelVersion(
  slug: string,
  journeyId: string,
  versionId: string,
  label: string,
  precondition: VersionPrecondition,
): Promise<JourneyVersion> {
  const { journey, version } = await readJourneyAndVersion(slug, journeyId, versionId, true);
  assertWritable(journey, version);
  const read = Number(version.revision);
  assertRevision(precondition, read, false);
  const now = new Date().toISOString();
  try {
    await transact([
      journeyStillActive(slug, journeyId),
      {
        Update: {
          TableName: tableName,
          Key: versionKey(slug, journeyId, versionId),
          UpdateExpression: 'SET #label = :label, updatedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
          ExpressionAttributeNames: { '#label': 'label', '#revision': 'revision' },
          ExpressionAttributeValues: { ':label': label, ':now': now, ':read': read },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
  } catch (error) {
    throw versionWriteFailure(error);
  }
  return { ...toVersion(version), label, updatedAt: now };
}

/**
 * DELETE a draft: tried as one transaction straight away (version not published and at If-Match;
 * journey active with more than one version). Only when it is refused does one read tell why,
 * in the issue's order.
 */
export async function discardVersion(slug: string, journeyId: string, versionId: string, precondition: VersionPrecondition): Promise<void> {
  const revision = versionCondition(precondition);
  try {
    await transact([
      {
        Delete: {
          TableName: tableName,
          Key: versionKey(slug, journeyId, versionId),
          ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(publishedAt)${revision.expression.replace('#version', '#revision')}`,
          ...(revision.expression
            ? { ExpressionAttributeNames: { '#revision': 'revision' }, ExpressionAttributeValues: revision.values }
            : {}),
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.journey(slug, journeyId),
          UpdateExpression: 'SET updatedAt = :now, #version = #version + :one ADD versionCount :minusOne',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt) AND versionCount > :one',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':now': new Date().toISOString(), ':one': 1, ':minusOne': -1 },
        },
      },
    ]);
  } catch (error) {
    if (!transactionCancellationReasons(error)?.includes('ConditionalCheckFailed')) throw error;
    const { journey, version } = await readJourneyAndVersion(slug, journeyId, versionId, false);
    assertWritable(journey, version);
    assertRevision(precondition, Number(version.revision), false);
    if (Number(journey!.versionCount) <= 1) throw lastVersion();
    throw new ConflictError('version_conflict', 'The journey changed while deleting; try again');
  }
}

/**
 * POST versions: a new draft copied from any version of the journey (content and diagnostics as
 * they are), counted on the journey, in one transaction after one read of both. Under an
 * Idempotency-Key only the new id is remembered (a version can be far larger than the record may
 * hold); a replay reads the version again.
 */
export async function branchVersion(
  slug: string,
  journeyId: string,
  fromVersionId: string,
  label: string | undefined,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: JourneyVersion; replayed: boolean }> {
  const { journey, version: source } = await readJourneyAndVersion(slug, journeyId, fromVersionId, true);
  if (!journey) throw journeyNotFound();
  if (!source) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();

  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const metadata: VersionMetadata = {
    id: newJourneyId(nowMs),
    journeyId,
    label: label ?? `Draft ${Number(journey.versionCount) + 1}`,
    parentVersionId: fromVersionId,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    revision: 1,
    sourceRevision: Number(source.revision),
    legacyOrigin: null,
  };
  const item = newVersionItem(slug, metadata, {
    content: source.content as Uint8Array,
    contentBytes: Number(source.contentBytes),
    diagnostics: source.diagnostics as Uint8Array,
    diagnosticsBytes: Number(source.diagnosticsBytes ?? 0),
    pairs: pairsFromAttribute(source.pairs),
  });
  // A branch draws its metrics as its source does until its first save resolves them afresh.
  if (typeof source.bindings === 'string') item.bindings = source.bindings;
  try {
    const { response, replayed } = await transactCreate(
      slug,
      [
        { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
        {
          Update: {
            TableName: tableName,
            Key: keys.journey(slug, journeyId),
            UpdateExpression: 'SET updatedAt = :now, #version = #version + :one ADD versionCount :one',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':now': now, ':one': 1 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ],
      { versionId: metadata.id },
      idempotency,
    );
    if (replayed) return { version: await getVersion(slug, journeyId, response.versionId), replayed };
    return { version: toVersion(item), replayed };
  } catch (error) {
    if (failedAt(transactionCancellationReasons(error), 1)) throw failedItem(error, 1) ? journeyArchived() : journeyNotFound();
    throw error;
  }
}

export type PublishOutcome = { ok: true; version: JourneyVersion; journey: Journey } | { ok: false; diagnostics: Diagnostic[] };

/**
 * Publish: one read of the journey and the whole version, the reference levels, fresh diagnostics
 * (errors refuse it), then ONE transaction: the version gets `publishedAt` (if still at the
 * revision read), the journey points at it and keeps its pairs, and the `pairedBy` sets of the
 * journeys it newly pairs or no longer pairs change with it. Publishing a published version
 * changes nothing.
 */
export async function publishVersion(
  slug: string,
  journeyId: string,
  versionId: string,
  precondition: VersionPrecondition,
): Promise<PublishOutcome> {
  const { journey, version } = await readJourneyAndVersion(slug, journeyId, versionId, true);
  if (!journey) throw journeyNotFound();
  if (!version) throw versionNotFound();
  if (typeof journey.archivedAt === 'string') throw journeyArchived();
  if (typeof version.publishedAt === 'string') return { ok: true, version: toVersion(version), journey: toJourney(journey) };
  const read = Number(version.revision);
  assertRevision(precondition, read, true);

  const content = decodeJson(version.content as Uint8Array) as JourneyContent;
  const { facts } = await loadReferenceFacts(slug, content);
  const fresh = diagnoseContent(content, facts, journeyId);
  if (fresh.some((diagnostic) => diagnostic.severity === 'error')) return { ok: false, diagnostics: storedDiagnostics(fresh).kept };

  const diagnostics = storedDiagnostics(fresh);
  const pairs = pairTargetsOf(content);
  const followed = followedBindingsOf(content);
  const followedBefore = new Set<string>(
    typeof journey.publishedMetricSurveys === 'string' ? JSON.parse(journey.publishedMetricSurveys) : [],
  );
  const now = new Date().toISOString();
  const before = new Set(distinctJourneys(pairsFromAttribute(journey.publishedPairs)));
  const after = new Set(distinctJourneys(pairs));
  const journeyVersion = Number(journey.version);
  try {
    await transact([
      {
        Update: {
          TableName: tableName,
          Key: versionKey(slug, journeyId, versionId),
          UpdateExpression:
            'SET publishedAt = :now, updatedAt = :now, #diagnostics = :diagnostics, diagnosticsBytes = :diagnosticsBytes, bindings = :bindings',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(publishedAt) AND #revision = :read',
          ExpressionAttributeNames: { '#diagnostics': 'diagnostics', '#revision': 'revision' },
          ExpressionAttributeValues: {
            ':bindings': bindingsAttribute(resolvedBindingsOf(content, facts.surveys ?? new Map())),
            ':now': now,
            ':diagnostics': diagnostics.bytes,
            ':diagnosticsBytes': diagnostics.rawBytes,
            ':read': read,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.journey(slug, journeyId),
          UpdateExpression:
            'SET publishedVersionId = :versionId, publishedPairs = :pairs, publishedMetricSurveys = :surveys, updatedAt = :now, #version = #version + :one',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(archivedAt)',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: {
            ':versionId': versionId,
            ':pairs': pairsAttribute(pairs),
            ':surveys': JSON.stringify([...followed.keys()]),
            ':now': now,
            ':one': 1,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      ...[...after].filter((id) => !before.has(id)).map((id) => startPairing(slug, id, journeyId)),
      ...[...before].filter((id) => !after.has(id)).map((id) => stopPairing(slug, id, journeyId)),
      // The survey publish gate's index (lib/journeys/survey-bindings.ts): what this version follows, nothing else.
      ...[...followed].map(([surveyId, questionIds]) => ({
        Put: {
          TableName: tableName,
          Item: {
            ...keys.surveyMetricBinding(slug, surveyId, journeyId),
            entity: METRIC_BINDING_ENTITY,
            surveyId,
            journeyId,
            versionId,
            questionIds,
            updatedAt: now,
          },
        },
      })),
      ...[...followedBefore]
        .filter((surveyId) => !followed.has(surveyId))
        .map((surveyId) => ({ Delete: { TableName: tableName, Key: keys.surveyMetricBinding(slug, surveyId, journeyId) } })),
    ]);
  } catch (error) {
    const reasons = transactionCancellationReasons(error);
    if (failedAt(reasons, 0)) {
      const current = failedItem(error, 0);
      if (!current) throw versionNotFound();
      if (current.publishedAt) throw versionLocked();
      throw new VersionConflictError(current.revision ?? 0);
    }
    if (failedAt(reasons, 1)) throw failedItem(error, 1) ? journeyArchived() : journeyNotFound();
    if (reasons?.includes('ConditionalCheckFailed')) {
      throw new ConflictError(
        'references_changed',
        'A journey this version pairs was archived while publishing; publish again for fresh diagnostics',
      );
    }
    throw error;
  }
  return {
    ok: true,
    version: { ...toVersionMetadata(version), publishedAt: now, updatedAt: now, content, diagnostics: diagnostics.kept },
    journey: { ...toJourney(journey), publishedVersionId: versionId, updatedAt: now, version: journeyVersion + 1 },
  };
}

/** Both versions in one BatchGetItem; what changed from `against` to `versionId`. */
export async function diffVersions(slug: string, journeyId: string, versionId: string, againstId: string): Promise<JourneyDiff> {
  const key = versionKey(slug, journeyId, versionId);
  const againstKey = versionKey(slug, journeyId, againstId);
  const found = bySortKey(await batchGet(versionId === againstId ? [key] : [key, againstKey], null));
  const current = found.get(key.sk);
  const against = found.get(againstKey.sk);
  if (!current || !against) throw versionNotFound();
  return diffContent(
    decodeJson(current.content as Uint8Array) as JourneyContent,
    decodeJson(against.content as Uint8Array) as JourneyContent,
  );
}

/** POST /journeys/validate: the diagnostics content would get, with its references read; nothing is written. */
export async function validateContent(slug: string, content: JourneyContent): Promise<Diagnostic[]> {
  encodeOrThrow(content);
  const { facts } = await loadReferenceFacts(slug, content);
  return storedDiagnostics(diagnoseContent(content, facts, null)).kept;
}
