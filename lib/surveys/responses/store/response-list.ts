/**
 * Lists of a survey's responses (items in record.ts). The responses of one survey are kept in 64
 * ranges by a hash of their id (../entities.ts), so every list merges them (lib/platform/data/sharded-ranges.ts).
 * Round trips and read units (docs/survey-responses.md has the figures):
 *   list           one parallel round of one Query per range, each asking about its share of the page
 *                  (`firstLimit`), beside one Query of the counter shards (the total); a second parallel
 *                  round, to the ranges that could still hold part of the page, only when the first
 *                  cannot prove it. `versionId`/`status` filter in DynamoDB; the counters give the
 *                  filtered total. A cursor is the last response's key: every range starts below its id.
 *   by respondent  one Query of the respondent's index items in this survey, then one BatchGetItem
 *   change feed    one parallel round over gsi1's 16 feed keys (changes in order, tombstones included;
 *                  gsi1 holds no answers), each asked for the whole page (index entries are small), beside
 *                  their counts; then one BatchGetItem of the changed responses
 * Until migration 002 has finished (layout.ts), the legacy range and the legacy feed key are read in the
 * same rounds, as one more range each, and a response read by id tries both its keys.
 * gsi1 is read eventually consistently (DynamoDB offers nothing else on a global secondary index:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Reading), so a
 * change committed a moment ago may show only on the next call: the guide tells feed readers to
 * overlap their `updatedSince` by a few seconds; entries repeat harmlessly (same id and revision).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany, type TableKey } from '../../../platform/data/batch.ts';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { keys } from '../../../platform/data/keys.ts';
import { readMerged } from '../../../platform/data/sharded-ranges.ts';
import { TABLE } from '../../../platform/data/table.ts';
import type { PageKey, PageStart } from '../../../platform/pagination.ts';
import { parseCounterAttribute } from '../counters.ts';
import {
  respondentEntity,
  responseCounterEntity,
  responseIdOfKey,
  SURVEY_RESPONSE_FEED_SHARDS,
  SURVEY_RESPONSE_SHARDS,
  surveyResponseEntity,
} from '../entities.ts';
import { respondentHash, toResponse, toTombstone } from '../record.ts';
import type { ResponseStatus, ResponseTombstone, SurveyResponse } from '../schemas.ts';
import { responseLayout } from './layout.ts';

type Item = Record<string, unknown>;

export interface ResponsePage<T> {
  responses: T[];
  total: number;
  hasMore: boolean;
  lastKey: PageKey | undefined;
  returned: number;
}

interface Filters {
  versionId?: string | undefined;
  status?: ResponseStatus | undefined;
}

/**
 * What the first round asks of each of the 64 ranges for a page of `wanted` responses: its share
 * with room for the unevenness of a random spread. At limit 25 (26 wanted) that is 3 per range, and a
 * second round is needed for about 4 pages in 10 (a simulation of uniformly hashed ids: 26 → 3 gives
 * 195 responses read on average, 64 × 3 in the first round and a few in the second).
 */
function firstLimitOf(wanted: number, ranges: number): number {
  return Math.ceil((1.5 * wanted) / Math.max(1, ranges)) + 2;
}

/** The total of the responses the filters select, from the counter shards' (version, status) counts. */
function totalOf(counters: Item[], filters: Filters): number {
  const versionHex = filters.versionId?.replaceAll('-', '');
  let total = 0;
  for (const counter of counters) {
    for (const [name, value] of Object.entries(counter)) {
      const parsed = parseCounterAttribute(name);
      if (!parsed || typeof value !== 'number') continue;
      if (versionHex && parsed.versionHex !== versionHex) continue;
      if (filters.status && parsed.status !== filters.status) continue;
      total += value;
    }
  }
  return Math.max(0, total);
}

function filterExpression(
  filters: Filters,
): Pick<QueryCommandInput, 'FilterExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'> {
  const parts: string[] = [];
  const values: Record<string, unknown> = {};
  if (filters.versionId) {
    parts.push('versionId = :versionId');
    values[':versionId'] = filters.versionId;
  }
  if (filters.status) {
    parts.push('#status = :status');
    values[':status'] = filters.status;
  }
  if (parts.length === 0) return {};
  return {
    FilterExpression: parts.join(' AND '),
    // DynamoDB refuses an empty ExpressionAttributeNames (a `versionId` filter alone names none: issue 27 item 11).
    ...(filters.status ? { ExpressionAttributeNames: { '#status': 'status' } } : {}),
    ExpressionAttributeValues: values,
  };
}

/** A descending Query of `from`…`to` (inclusive) with the filters. */
function rangeQuery(workspace: string, from: string, to: string, filters: Filters): QueryCommandInput {
  const filter = filterExpression(filters);
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...filter,
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':from': from, ':to': to, ...filter.ExpressionAttributeValues },
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** The given ranges of the survey's responses, below `beforeId` (a cursor's, inclusive: the merge drops it) when given. */
function responseRanges(
  workspace: string,
  surveyId: string,
  shards: readonly number[],
  filters: Filters,
  beforeId: string | undefined,
): QueryCommandInput[] {
  const ranges = shards.map((shard) => {
    const range = surveyResponseEntity.keys.shardRange(surveyId, shard);
    return rangeQuery(workspace, range.from, beforeId ? `${range.from}${beforeId}` : range.to, filters);
  });
  if (responseLayout.pending) {
    const legacy = surveyResponseEntity.keys.legacyRange(surveyId);
    ranges.push(rangeQuery(workspace, legacy.from, beforeId ? `${legacy.from}${beforeId}` : legacy.to, filters));
  }
  return ranges;
}

/** The ranges whose counter counts a response the filters select (counters.ts keeps each count in its range's counter). */
function rangesCounted(counters: readonly Item[], filters: Filters): number[] {
  const ranges: number[] = [];
  for (const counter of counters) {
    const shard = Number((counter.sk as string).slice(-2));
    if (totalOf([counter], filters) > 0 && shard < SURVEY_RESPONSE_SHARDS) ranges.push(shard);
  }
  return ranges.sort((a, b) => a - b);
}

/**
 * The ranges this instance last saw holding responses, per survey: the list queries these beside the
 * counters, and only when the counters show a range it did not query (one that got its first response
 * since) does it query again. Enough for the warm instances of a busy workspace; the oldest goes first.
 */
const rangesSeen = new Map<string, number[]>();
const RANGES_SEEN_LIMIT = 500;

function rememberRanges(key: string, ranges: number[]): void {
  rangesSeen.delete(key);
  rangesSeen.set(key, ranges);
  if (rangesSeen.size > RANGES_SEEN_LIMIT) rangesSeen.delete(rangesSeen.keys().next().value as string);
}

/** The survey's counter shards (only those ever made): one Query of their prefix. */
async function countersOf(workspace: string, surveyId: string): Promise<Item[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': responseCounterEntity.keys.prefix(surveyId) },
      ConsistentRead: true,
    }),
  );
  return Items;
}

/** Of one response met at two keys (while the migration moves it), the later revision. */
const newerRevision = (a: Item, b: Item) => (Number(b.revision) > Number(a.revision) ? b : a);
const responseOrder = (item: Item) => responseIdOfKey(item.sk as string);

function isResponseKey(workspace: string, surveyId: string, key: PageKey): boolean {
  if (key.pk !== keys.workspacePk(workspace) || typeof key.sk !== 'string') return false;
  return key.sk.startsWith(`SURVEYRESP#${surveyId}#`) || key.sk.startsWith(surveyResponseEntity.keys.legacyPrefix(surveyId));
}

/**
 * One page of a survey's responses, newest first, and how many the filters select. The counters and
 * the ranges this instance last saw holding responses are read in one round trip; the ranges are merged
 * (newest id first: ids are UUIDv7). A cold instance, or one that meets a range with its first
 * response, reads the ranges the counters name in a second round trip.
 */
export async function readResponsePage(
  workspace: string,
  surveyId: string,
  filters: Filters,
  { limit, offset, after }: PageStart,
): Promise<ResponsePage<SurveyResponse>> {
  if (after && !isResponseKey(workspace, surveyId, after)) throw new Error('A cursor named a key outside its list');
  const beforeId = after ? responseIdOfKey(after.sk as string) : undefined;
  const skip = after ? 0 : offset;
  const wanted = skip + limit + 1;
  const merge = (shards: readonly number[]) => {
    const ranges = responseRanges(workspace, surveyId, shards, filters, beforeId);
    // The legacy range (while pending) holds every older response in one range: ask it for the whole page.
    const limits = ranges.map((_, i) => (i < shards.length ? firstLimitOf(wanted, shards.length) : wanted));
    return readMerged({ ranges, orderOf: responseOrder, descending: true, after: beforeId, prefer: newerRevision }, wanted, limits);
  };
  const seenKey = `${workspace}#${surveyId}`;
  const seen = rangesSeen.get(seenKey);
  const guess = seen ? merge(seen) : undefined;
  guess?.catch(() => undefined);
  const [counters] = await Promise.all([countersOf(workspace, surveyId), responseLayout.check()]);
  rememberRanges(seenKey, rangesCounted(counters, {}));
  const needed = rangesCounted(counters, filters);
  const merged = guess && seen && needed.every((shard) => seen.includes(shard)) ? await guess : await merge(needed);
  const items = merged.items.slice(skip);
  const shown = items.slice(0, limit);
  const last = shown.at(-1);
  return {
    responses: shown.map(toResponse),
    total: totalOf(counters, filters),
    hasMore: items.length > limit,
    lastKey: last ? { pk: keys.workspacePk(workspace), sk: last.sk as string } : undefined,
    returned: shown.length,
  };
}

/** Each response's keys to read: its key, and its legacy key too while migration 002 is unfinished. */
function responseKeysOf(workspace: string, surveyId: string, responseId: string): TableKey[] {
  const current = surveyResponseEntity.keys.response(workspace, surveyId, responseId);
  return responseLayout.pending ? [current, surveyResponseEntity.keys.legacy(workspace, surveyId, responseId)] : [current];
}

/** The stored responses of `ids` (in that order, missing ones left out): one BatchGetItem per 100 keys, in parallel. */
export async function readResponses(workspace: string, refs: readonly { surveyId: string; responseId: string }[]): Promise<Item[]> {
  const probe = responseLayout.due();
  const wanted = refs.map((ref) => responseKeysOf(workspace, ref.surveyId, ref.responseId));
  const found = await getMany([...wanted.flat(), ...(probe ? [probe] : [])]);
  if (probe) responseLayout.settle(found.at(-1));
  const byKey = new Map<string, Item>();
  for (const item of found) if (item) byKey.set(item.sk as string, item);
  return wanted.flatMap((candidates) => {
    const items = candidates.flatMap((key): Item[] => {
      const item = byKey.get(key.sk);
      return item ? [item] : [];
    });
    return items.length > 0 ? [items.reduce(newerRevision)] : [];
  });
}

/** Up to `limit` of a respondent's index items across the workspace's surveys (one Query): the responses they name, and whether more are indexed. */
export async function listRespondentIndex(
  workspace: string,
  hash: string,
  limit: number,
): Promise<{ refs: { surveyId: string; responseId: string }[]; hasMore: boolean }> {
  const { Items = [], LastEvaluatedKey } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': respondentEntity.keys.prefix(hash) },
      Limit: limit,
      ConsistentRead: true,
    }),
  );
  return {
    refs: Items.map((item) => ({ surveyId: item.surveyId as string, responseId: item.responseId as string })),
    hasMore: LastEvaluatedKey !== undefined,
  };
}

/** One respondent's responses to the survey (by their externalId), newest first. */
export async function listRespondentResponses(
  workspace: string,
  surveyId: string,
  externalId: string,
  filters: Filters,
  { limit, offset, after }: PageStart,
): Promise<ResponsePage<SurveyResponse>> {
  const hash = await respondentHash('externalId', externalId);
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': respondentEntity.keys.prefix(hash, surveyId) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  const selected = (
    await readResponses(
      workspace,
      Items.map((item) => ({ surveyId, responseId: item.responseId as string })),
    )
  ).filter((item) => (!filters.versionId || item.versionId === filters.versionId) && (!filters.status || item.status === filters.status));
  // Newest first by id, whichever layout holds each one.
  const beforeId = after ? responseIdOfKey(after.sk as string) : undefined;
  const from = beforeId ? selected.findIndex((item) => (item.id as string) < beforeId) : offset;
  const rest = from < 0 ? [] : selected.slice(from, from + limit + 1);
  const shown = rest.slice(0, limit);
  const last = shown.at(-1);
  return {
    responses: shown.map(toResponse),
    total: selected.length,
    hasMore: rest.length > limit,
    lastKey: last ? { pk: keys.workspacePk(workspace), sk: last.sk as string } : undefined,
    returned: shown.length,
  };
}

/** The feed's index keys: 16 shards, and the legacy key while migration 002 is unfinished. */
function feedKeys(workspace: string, surveyId: string): string[] {
  const feeds = Array.from({ length: SURVEY_RESPONSE_FEED_SHARDS }, (_, shard) =>
    surveyResponseEntity.keys.feedPk(workspace, surveyId, shard),
  );
  if (responseLayout.pending) feeds.push(surveyResponseEntity.keys.legacyFeedPk(workspace, surveyId));
  return feeds;
}

function feedQuery(feed: string, after: string): QueryCommandInput {
  return {
    TableName: tableName,
    IndexName: TABLE.gsi1.name,
    KeyConditionExpression: 'gsi1pk = :feed AND gsi1sk > :after',
    ExpressionAttributeValues: { ':feed': feed, ':after': after },
  };
}

/**
 * The change feed: responses created, changed, deleted or erased after `since`, oldest change
 * first. A response changed again later shows at its latest change; a deleted one as its tombstone.
 */
export async function listChanges(
  workspace: string,
  surveyId: string,
  since: string,
  { limit, offset, after }: PageStart,
): Promise<ResponsePage<SurveyResponse | ResponseTombstone>> {
  const feeds = feedKeys(workspace, surveyId);
  if (
    after &&
    (typeof after.gsi1pk !== 'string' || !after.gsi1pk.startsWith(surveyResponseEntity.keys.legacyFeedPk(workspace, surveyId)))
  ) {
    throw new Error("A cursor for the change feed named a key outside the survey's feed");
  }
  // '~' sorts after every id character, so changes at exactly `since` are not "after" it.
  const from = after ? (after.gsi1sk as string) : `${new Date(since).toISOString()}#~`;
  const skip = after ? 0 : offset;
  const wanted = skip + limit + 1;
  const queries = feeds.map((feed) => feedQuery(feed, from));
  const [merged, total] = await Promise.all([
    // Index entries are a few hundred bytes: each feed key is asked for the whole page, so one round proves it.
    readMerged({ ranges: queries, orderOf: (item) => item.gsi1sk as string, descending: false }, wanted, wanted),
    countChanges(queries),
    responseLayout.check(),
  ]);
  // One response met twice (at two feed keys while it moves) shows at its later change only.
  const latest = new Map(merged.items.map((item) => [item.id as string, item.gsi1sk as string]));
  const changes = merged.items.filter((item) => latest.get(item.id as string) === item.gsi1sk).slice(skip);
  const shown = changes.slice(0, limit);
  const changed = shown.filter((item) => item.entity === surveyResponseEntity.name);
  const current = new Map(
    (
      await readResponses(
        workspace,
        changed.map((item) => ({ surveyId, responseId: item.id as string })),
      )
    ).map((item) => [item.id as string, item]),
  );
  const entries: (SurveyResponse | ResponseTombstone)[] = [];
  for (const item of shown) {
    if (item.entity !== surveyResponseEntity.name) entries.push(toTombstone(item));
    else {
      // Deleted since the index was read: its tombstone comes later in the feed.
      const full = current.get(item.id as string);
      if (full) entries.push(toResponse(full));
    }
  }
  const last = shown.at(-1);
  return {
    responses: entries,
    total,
    hasMore: changes.length > limit,
    lastKey: last
      ? { pk: last.pk as string, sk: last.sk as string, gsi1pk: last.gsi1pk as string, gsi1sk: last.gsi1sk as string }
      : undefined,
    returned: shown.length,
  };
}

/** How many changes the feed keys hold after the start: one COUNT Query per key, in parallel, each paged to its end. */
async function countChanges(queries: readonly QueryCommandInput[]): Promise<number> {
  const counts = await Promise.all(
    queries.map(async (query) => {
      let count = 0;
      let cursor: Record<string, unknown> | undefined;
      do {
        const { Count = 0, LastEvaluatedKey } = await dynamo.send(
          new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: cursor }),
        );
        count += Count;
        cursor = LastEvaluatedKey;
      } while (cursor);
      return count;
    }),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
