/**
 * Lists of a survey's responses (items in record.ts). Round trips:
 *   list           one descending Query of the survey's range: its counter shards come first (the
 *                  total), then the newest responses; `versionId`/`status` filter in DynamoDB and the
 *                  counters give the filtered total. From a cursor the counters are read beside it.
 *   by respondent  one Query of the respondent's index items in this survey, then one BatchGetItem
 *   change feed    one Query of gsi1 (changes in order, tombstones included; gsi1 holds no answers),
 *                  then one BatchGetItem of the changed responses, beside a count of the changes
 * gsi1 is read eventually consistently (DynamoDB offers nothing else on a global secondary index:
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.Reading), so a
 * change committed a moment ago may show only on the next call: the README tells feed readers to
 * overlap their `updatedSince` by a few seconds; entries repeat harmlessly (same id and revision).
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { walkCountedList } from '../../platform/data/list-walk.ts';
import { TABLE } from '../../platform/data/table.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { RESPONSE_ENTITY } from './entity.ts';
import { COUNTER_ENTITY, COUNTER_SHARDS, parseCounterAttribute, respondentHash, toResponse, toTombstone } from './record.ts';
import type { ResponseStatus, ResponseTombstone, SurveyResponse } from './schemas.ts';

const MAX_ITEMS_PER_QUERY = 1000;

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

/** The total of the responses the filters select, from the counter shards' (version, status) counts. */
function totalOf(counters: Record<string, unknown>[], filters: Filters): number {
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
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filters.versionId) {
    parts.push('versionId = :versionId');
    values[':versionId'] = filters.versionId;
  }
  if (filters.status) {
    parts.push('#status = :status');
    names['#status'] = 'status';
    values[':status'] = filters.status;
  }
  if (parts.length === 0) return {};
  // Counters pass the filter: the first page reads the total from them.
  return {
    FilterExpression: `entity = :counter OR (${parts.join(' AND ')})`,
    // DynamoDB refuses an empty ExpressionAttributeNames (a `versionId` filter alone names none).
    ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
    ExpressionAttributeValues: { ...values, ':counter': COUNTER_ENTITY },
  };
}

function rangeQuery(workspace: string, surveyId: string, filters: Filters): QueryCommandInput {
  const range = keys.surveyResponseListRange(surveyId);
  const filter = filterExpression(filters);
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ...filter,
    ExpressionAttributeValues: {
      ':pk': keys.workspacePk(workspace),
      ':from': range.from,
      ':to': range.to,
      ...filter.ExpressionAttributeValues,
    },
    ScanIndexForward: false,
    ConsistentRead: true,
  };
}

/** The survey's counter shards (only those ever made): one Query of their prefix, for a page from a cursor. */
async function countersOf(workspace: string, surveyId: string): Promise<Record<string, unknown>[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: {
        ':pk': keys.workspacePk(workspace),
        ':prefix': keys.surveyResponseCounter(workspace, surveyId, 0).sk.slice(0, -2),
      },
      ConsistentRead: true,
    }),
  );
  return Items;
}

function pageOf(workspace: string, items: Record<string, unknown>[], limit: number, total: number): ResponsePage<SurveyResponse> {
  const shown = items.slice(0, limit);
  const last = shown.at(-1);
  return {
    responses: shown.map(toResponse),
    total,
    hasMore: items.length > limit,
    lastKey: last ? { pk: keys.workspacePk(workspace), sk: last.sk as string } : undefined,
    returned: shown.length,
  };
}

/**
 * One page of a survey's responses, newest first, and how many the filters select: the counted
 * list walk (lib/platform/data/list-walk.ts) over the survey's range, whose counter shards lead it.
 */
export async function listResponses(
  workspace: string,
  surveyId: string,
  filters: Filters,
  start: PageStart,
): Promise<ResponsePage<SurveyResponse>> {
  const { items, ...rest } = await walkCountedList(
    {
      query: rangeQuery(workspace, surveyId, filters),
      counterItems: COUNTER_SHARDS,
      isCounter: (item) => item.entity === COUNTER_ENTITY,
      totalOf: (counters) => totalOf(counters, filters),
      readCounters: () => countersOf(workspace, surveyId),
      cursorInRange: (after) =>
        after.pk === keys.workspacePk(workspace) &&
        typeof after.sk === 'string' &&
        after.sk.startsWith(keys.surveyResponsePrefix(surveyId)),
      keyOf: (item) => ({ pk: keys.workspacePk(workspace), sk: item.sk as string }),
    },
    start,
  );
  return { responses: items.map(toResponse), ...rest };
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
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': keys.surveyRespondentPrefix(hash, surveyId) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  const responseKeys = Items.map((item) => keys.surveyResponse(workspace, surveyId, item.responseId as string));
  const selected = (await getMany(responseKeys))
    .filter((item): item is Record<string, unknown> => item !== undefined)
    .filter((item) => (!filters.versionId || item.versionId === filters.versionId) && (!filters.status || item.status === filters.status));
  const from = after ? selected.findIndex((item) => (item.sk as string) < (after.sk as string)) : offset;
  const rest = from < 0 ? [] : selected.slice(from);
  return pageOf(workspace, rest.slice(0, limit + 1), limit, selected.length);
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
  const feed: QueryCommandInput = {
    TableName: tableName,
    IndexName: TABLE.gsi1.name,
    KeyConditionExpression: 'gsi1pk = :feed AND gsi1sk > :since',
    // '~' sorts after every id character, so changes at exactly `since` are not "after" it.
    ExpressionAttributeValues: { ':feed': keys.surveyResponseFeedPk(workspace, surveyId), ':since': `${new Date(since).toISOString()}#~` },
  };
  if (after && after.gsi1pk !== keys.surveyResponseFeedPk(workspace, surveyId)) {
    throw new Error("A cursor for the change feed named a key outside the survey's feed");
  }
  const [changes, total] = await Promise.all([feedPage(feed, after, limit + 1, offset), countChanges(feed)]);
  const shown = changes.slice(0, limit);
  const changed = shown.filter((item) => item.entity === RESPONSE_ENTITY);
  const fetched = await getMany(changed.map((item) => keys.surveyResponse(workspace, surveyId, item.id as string)));
  const current = new Map(fetched.filter((item) => item !== undefined).map((item) => [item.sk as string, item]));
  const entries: (SurveyResponse | ResponseTombstone)[] = [];
  for (const item of shown) {
    if (item.entity !== RESPONSE_ENTITY) entries.push(toTombstone(item));
    else {
      // Deleted since the index was read: its tombstone comes later in the feed.
      const full = current.get(keys.surveyResponse(workspace, surveyId, item.id as string).sk);
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

async function feedPage(query: QueryCommandInput, after: PageKey | undefined, wanted: number, offset: number) {
  const page: Record<string, unknown>[] = [];
  let skipped = 0;
  let cursor: Record<string, unknown> | undefined = after;
  do {
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        ...query,
        Limit: Math.min(MAX_ITEMS_PER_QUERY, offset - skipped + wanted - page.length),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (skipped < offset) skipped++;
      else if (page.length < wanted) page.push(item);
    }
    cursor = LastEvaluatedKey;
  } while (cursor && page.length < wanted);
  return page;
}

async function countChanges(query: QueryCommandInput): Promise<number> {
  let count = 0;
  let cursor: Record<string, unknown> | undefined;
  do {
    const { Count = 0, LastEvaluatedKey } = await dynamo.send(new QueryCommand({ ...query, Select: 'COUNT', ExclusiveStartKey: cursor }));
    count += Count;
    cursor = LastEvaluatedKey;
  } while (cursor);
  return count;
}
