/**
 * Access patterns of surveys. Everything stays inside the workspace's partition (keys.survey*), so
 * an id of another workspace is simply not found. Items:
 *   SURVEY#<id>                         the survey, with a map of its version summaries
 *   SURVEY$COUNT                        how many surveys are in each listed status
 *   SURVEYVERSION#<surveyId>#<id>       a version: its definition and issues, deflated
 *   SURVEYDESIGNS                       the workspace's designs, one attribute each
 *   SURVEYAUDIENCE                      the audience attribute catalog (cxctl audience set)
 * Round trips per operation (the README's table says the same):
 *   list, read, read version, save version, discard version, designs, audience: 1
 *   create (reads the designs it returns), update with designId/targetingRules (reads what it checks
 *   against), archive and close (read the status they change, then a transaction that also moves the
 *   status counters, conditional on that read), new version (reads the version it copies): 2–3
 *   publish: reads the survey, the version and the published version it compares with, then 1 write
 * A failed condition returns the current item (ReturnValuesOnConditionCheckFailure), which tells
 * 404 from 409 without another read.
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
  retryTransactionConflicts,
  transactionCancellationReasons,
  type VersionPrecondition,
  versionCondition,
} from '../platform/data/conditions.ts';
import { type IdempotentRequest, transactCreate } from '../platform/data/idempotency.ts';
import { keys } from '../platform/data/keys.ts';
import { ApiError, BadRequestError, ConflictError, NotFoundError, ValidationError, VersionConflictError } from '../platform/errors.ts';
import type { PageKey, PageStart } from '../platform/pagination.ts';
import type { SurveyDefinition } from './engine/definition.ts';
import type { AudienceAttribute } from './engine/targeting.ts';
import {
  COUNTER_ENTITY,
  compressContent,
  defaultDesign,
  designAttribute,
  designsOf,
  newSurveyId,
  STORED_CONTENT_MAX_BYTES,
  type StoredDesign,
  type StoredSummary,
  SURVEY_ENTITY,
  SURVEY_RECORD_ATTRIBUTES,
  summariesOf,
  toDesign,
  toSurvey,
  toVersion,
  VERSION_ENTITY,
} from './record.ts';
import {
  type DesignPatch,
  type ListedStatus,
  SURVEY_LIMITS,
  type Survey,
  type SurveyDesign,
  type SurveyPatch,
  type SurveyVersion,
  type VersionSummary,
} from './schemas.ts';

const SURVEY_CREATE_SCOPE = 'POST /surveys';
const MAX_ITEMS_PER_QUERY = 1000;
const TRANSACTION_ATTEMPTS = 6;

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
type RawItem = Record<string, AttributeValue>;

export function surveyNotFound(): NotFoundError {
  return new NotFoundError('not_found', 'No survey with this id in this workspace');
}
export function versionNotFound(): NotFoundError {
  return new NotFoundError('not_found', 'No version with this id in this survey');
}
function designNotFound(): NotFoundError {
  return new NotFoundError('not_found', 'No design with this id in this workspace');
}
function surveyArchived(): ConflictError {
  return new ConflictError('survey_archived', 'The survey is archived and read-only');
}
function versionLocked(status: string): ConflictError {
  return new ConflictError('version_locked', `The version is ${status}, and only drafts change; create a new version from it instead`);
}

function definitionTooLarge(): ApiError {
  return new ApiError(413, 'definition_too_large', 'The definition does not fit in one version, even compressed');
}

function compressedContent(definition: SurveyDefinition, issues: SurveyVersion['issues']): Uint8Array {
  const content = compressContent({ definition, issues });
  if (content.byteLength > STORED_CONTENT_MAX_BYTES) throw definitionTooLarge();
  return content;
}

const surveyProjection = {
  ProjectionExpression: SURVEY_RECORD_ATTRIBUTES.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(SURVEY_RECORD_ATTRIBUTES.map((name, i) => [`#p${i}`, name])),
};

async function transactWrite(items: TransactItems): Promise<void> {
  await retryTransactionConflicts(() => dynamo.send(new TransactWriteCommand({ TransactItems: items })), TRANSACTION_ATTEMPTS);
}

/** The item a failed transaction condition returned, by the index of the write. */
function cancelledItem(error: unknown, index: number): RawItem | undefined | null {
  const reasons = transactionCancellationReasons(error);
  if (reasons?.[index] !== 'ConditionalCheckFailed') return null;
  return (error as { CancellationReasons?: { Item?: RawItem }[] }).CancellationReasons?.[index]?.Item;
}

/** 404, 409 `survey_archived` or 409 `version_conflict` from the survey a condition saw. */
function surveyConditionFailure(current: RawItem | undefined): Error {
  if (!current) return surveyNotFound();
  if (current.status?.S === 'archived') return surveyArchived();
  return new VersionConflictError(Number(current.version?.N ?? 0));
}

/** Reads several items of the workspace in one round trip (retrying what DynamoDB left unprocessed). */
async function batchGet(keyList: Record<string, string>[]): Promise<(Record<string, unknown> | undefined)[]> {
  const found = new Map<string, Record<string, unknown>>();
  let pending: Record<string, unknown>[] = keyList;
  for (let attempt = 0; pending.length > 0 && attempt < 5; attempt++) {
    const { Responses, UnprocessedKeys } = await dynamo.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }),
    );
    for (const item of Responses?.[tableName] ?? []) found.set(`${item.pk}|${item.sk}`, item);
    pending = (UnprocessedKeys?.[tableName]?.Keys as Record<string, unknown>[] | undefined) ?? [];
  }
  if (pending.length > 0) throw new Error('DynamoDB left keys unprocessed');
  return keyList.map((key) => found.get(`${key.pk}|${key.sk}`));
}

// ---- surveys ----------------------------------------------------------------------------------

export interface CreatedSurvey {
  survey: Survey;
  version: SurveyVersion;
  designs: SurveyDesign[];
}

/**
 * Creates the survey with its first draft (version 1) and, with the workspace's first survey, the
 * default design (whose id is derived from the workspace, so concurrent first surveys agree).
 * Reads the designs first, to return them, then one transaction.
 */
export async function createSurvey(
  slug: string,
  input: { name: string; language: Survey['language']; definition: SurveyDefinition; issues: SurveyVersion['issues'] },
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<CreatedSurvey & { replayed: boolean }> {
  const { Item: designsItem } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.surveyDesigns(slug), ConsistentRead: true }),
  );
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const surveyId = newSurveyId(nowMs);
  const versionId = newSurveyId(nowMs);
  const starter = defaultDesign(slug, now);
  const designs = designsOf(designsItem);
  if (!designs.some((design) => design.isDefault)) designs.unshift(toDesign(starter));

  const survey: Survey = {
    id: surveyId,
    name: input.name,
    nameAr: null,
    language: input.language,
    version: 1,
    status: 'draft',
    themeLogoUrl: null,
    themePrimaryColor: null,
    designId: starter.id,
    targetingRules: null,
    publishedVersionId: null,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
    archivedAt: null,
  };
  const version: SurveyVersion = {
    id: versionId,
    surveyId,
    number: 1,
    status: 'draft',
    basedOnVersionId: null,
    revision: 1,
    definition: input.definition,
    issues: input.issues,
    createdBy: keyId,
    createdAt: now,
    updatedAt: now,
    publishedAt: null,
  };
  const summary: StoredSummary = { id: versionId, number: 1, status: 'draft', createdBy: keyId, createdAt: now };
  const designAttr = designAttribute(starter.id);
  const writes: TransactItems = [
    {
      Put: {
        TableName: tableName,
        Item: {
          ...keys.survey(slug, surveyId),
          entity: SURVEY_ENTITY,
          id: surveyId,
          name: survey.name,
          language: survey.language,
          version: 1,
          status: 'draft',
          designId: survey.designId,
          createdAt: now,
          updatedAt: now,
          versions: { [versionId]: summary },
          versionCount: 1,
          createdByKeyId: keyId,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Put: {
        TableName: tableName,
        Item: versionItem(slug, version, compressedContent(version.definition, version.issues), input.language),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.surveyDesigns(slug),
        UpdateExpression: 'SET entity = :entity, #default = if_not_exists(#default, :design)',
        ExpressionAttributeNames: { '#default': designAttr },
        ExpressionAttributeValues: { ':entity': 'SurveyDesigns', ':design': starter },
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.surveyCounter(slug),
        UpdateExpression: 'SET entity = :entity ADD draftCount :one',
        ExpressionAttributeValues: { ':entity': COUNTER_ENTITY, ':one': 1 },
      },
    },
  ];
  const { response, replayed } = await transactCreate<CreatedSurvey>(
    slug,
    writes,
    { survey, version, designs },
    idempotency && { ...idempotency, scope: SURVEY_CREATE_SCOPE },
    TRANSACTION_ATTEMPTS,
  );
  return { ...response, replayed };
}

/**
 * A version item. It carries the survey's language, so a save can require the definition to
 * include it in its own condition, without reading the survey.
 */
function versionItem(slug: string, version: SurveyVersion, content: Uint8Array, surveyLanguage: string): Record<string, unknown> {
  const errorCount = version.issues.filter((issue) => issue.severity === 'error').length;
  return {
    ...keys.surveyVersion(slug, version.surveyId, version.id),
    entity: VERSION_ENTITY,
    surveyLanguage,
    id: version.id,
    surveyId: version.surveyId,
    number: version.number,
    status: version.status,
    basedOnVersionId: version.basedOnVersionId ?? undefined,
    revision: version.revision,
    content,
    errorCount,
    warningCount: version.issues.length - errorCount,
    createdBy: version.createdBy,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
  };
}

export interface SurveyWithVersions {
  survey: Survey;
  versions: VersionSummary[];
  designs: SurveyDesign[];
}

/** The survey (archived ones too), its version summaries and the workspace's designs: one BatchGetItem. */
export async function getSurvey(slug: string, id: string): Promise<SurveyWithVersions | null> {
  const [item, designsItem] = await batchGet([keys.survey(slug, id), keys.surveyDesigns(slug)]);
  if (!item) return null;
  return { survey: toSurvey(item), versions: summariesOf(item), designs: designsOf(designsItem) };
}

async function getSurveyItem(slug: string, id: string): Promise<Record<string, unknown>> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.survey(slug, id), ConsistentRead: true }));
  if (!Item) throw surveyNotFound();
  return Item;
}

export interface SurveyPage {
  surveys: Survey[];
  total: number;
  hasMore: boolean;
  /** The key of the page's last survey, where a cursor continues (lib/platform/pagination.ts). */
  lastKey: PageKey | undefined;
  returned: number;
}

/**
 * One page of listed surveys, newest first, and the total of the status asked (or of all listed
 * statuses). The per-status counter is the first item of the descending range; archived surveys
 * are filtered out by DynamoDB and never counted. From a cursor (`after`, the key of the previous
 * page's last survey) the Query starts there and reads only the page, and the counter is read
 * beside it.
 */
export async function listSurveys(
  slug: string,
  { limit, offset, after, status }: PageStart & { status?: ListedStatus | undefined },
): Promise<SurveyPage> {
  if (after && (after.pk !== keys.workspacePk(slug) || typeof after.sk !== 'string' || !after.sk.startsWith(keys.surveyListRange.from))) {
    throw new Error("A cursor for surveys named a key outside the workspace's surveys");
  }
  const statuses = status ? [status] : ['draft', 'published', 'closed'];
  const totalOf = (counter: Record<string, unknown> | undefined) =>
    Math.max(
      0,
      statuses.reduce((sum, name) => sum + ((counter?.[`${name}Count`] as number | undefined) ?? 0), 0),
    );
  const skip = after ? 0 : offset;
  const wanted = skip + limit + 1;
  // After a cursor the counter is behind the start key: read it beside the first Query page.
  const counterRead = after
    ? dynamo.send(new GetCommand({ TableName: tableName, Key: keys.surveyCounter(slug), ConsistentRead: true }))
    : undefined;
  // Awaited below; a failed Query first must not leave its rejection unhandled.
  counterRead?.catch(() => undefined);
  let total: number | undefined;
  let skipped = 0;
  const page: Record<string, unknown>[] = [];
  let cursor: Record<string, unknown> | undefined = after;
  const statusValues = Object.fromEntries(statuses.map((value, i) => [`:s${i}`, value]));
  do {
    const { Items = [], LastEvaluatedKey } = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: `entity = :counter OR #p${SURVEY_RECORD_ATTRIBUTES.indexOf('status')} IN (${Object.keys(statusValues).join(', ')})`,
        ExpressionAttributeValues: {
          ':pk': keys.workspacePk(slug),
          ':from': keys.surveyListRange.from,
          ':to': keys.surveyListRange.to,
          ':counter': COUNTER_ENTITY,
          ...statusValues,
        },
        ProjectionExpression: `sk, entity, draftCount, publishedCount, closedCount, ${surveyProjection.ProjectionExpression}`,
        ExpressionAttributeNames: surveyProjection.ExpressionAttributeNames,
        ScanIndexForward: false,
        ConsistentRead: true,
        // Archived surveys are read and filtered out, so a page asks for what is still wanted.
        Limit: Math.min(wanted - skipped - page.length + 1, MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of Items) {
      if (item.entity === COUNTER_ENTITY) total = totalOf(item);
      else if (skipped < skip) skipped++;
      else if (page.length < limit + 1) page.push(item);
    }
    if (counterRead) total ??= totalOf((await counterRead).Item);
    total ??= 0;
    cursor = LastEvaluatedKey;
    if (!after && offset >= total) break;
  } while (cursor && skipped + page.length < wanted);
  const shown = page.slice(0, limit);
  const last = shown.at(-1);
  return {
    surveys: shown.map(toSurvey),
    total,
    hasMore: page.length > limit,
    lastKey: last ? { pk: keys.workspacePk(slug), sk: last.sk as string } : undefined,
    returned: shown.length,
  };
}

/** What PATCH checks `designId` and `targetingRules` against, read in one round trip. */
export async function getDesignsAndAudience(slug: string): Promise<{ designs: SurveyDesign[]; audience: AudienceAttribute[] }> {
  const [designsItem, audienceItem] = await batchGet([keys.surveyDesigns(slug), keys.surveyAudience(slug)]);
  return { designs: designsOf(designsItem), audience: audienceOf(audienceItem) };
}

const PATCHABLE = ['name', 'nameAr', 'themeLogoUrl', 'themePrimaryColor', 'designId', 'targetingRules'] as const;

/** Applies a PATCH in one conditional UpdateItem; archived surveys are read-only. */
export async function updateSurvey(slug: string, id: string, patch: SurveyPatch, precondition: VersionPrecondition): Promise<Survey> {
  const names: Record<string, string> = { '#version': 'version', '#status': 'status', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':one': 1, ':now': new Date().toISOString(), ':archived': 'archived' };
  const set = ['#version = #version + :one', '#updatedAt = :now'];
  const remove: string[] = [];
  // Only allow-listed names reach the expression, whatever keys the body carries.
  for (const field of PATCHABLE) {
    const value = patch[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) remove.push(`#${field}`);
    else {
      values[`:${field}`] = field === 'targetingRules' ? JSON.stringify(value) : value;
      set.push(`#${field} = :${field}`);
    }
  }
  const version = versionCondition(precondition);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.survey(slug, id),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: `attribute_exists(pk) AND #status <> :archived${version.expression}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ...values, ...version.values },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toSurvey(Attributes as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailure(error)) throw surveyConditionFailure(error.Item as RawItem | undefined);
    throw error;
  }
}

/** The status counter change of a transition, as one Update of the counter item. */
function counterMove(slug: string, from: Survey['status'] | null, to: Survey['status'] | null): TransactItems[number] | null {
  if (from === to) return null;
  const adds: string[] = [];
  const values: Record<string, unknown> = { ':entity': COUNTER_ENTITY };
  if (from && from !== 'archived') {
    adds.push(`${from}Count :minusOne`);
    values[':minusOne'] = -1;
  }
  if (to && to !== 'archived') {
    adds.push(`${to}Count :plusOne`);
    values[':plusOne'] = 1;
  }
  if (adds.length === 0) return null;
  return {
    Update: {
      TableName: tableName,
      Key: keys.surveyCounter(slug),
      UpdateExpression: `SET entity = :entity ADD ${adds.join(', ')}`,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Archives a survey: reads it (its status decides which count to lower, its drafts are marked so
 * they refuse saves), then one transaction conditional on what was read.
 */
export async function archiveSurvey(slug: string, id: string, precondition: VersionPrecondition): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await getSurveyItem(slug, id);
    const survey = toSurvey(item);
    if (survey.status === 'archived') throw surveyArchived();
    if (precondition && !precondition.anyVersion && !precondition.versions.includes(survey.version))
      throw new VersionConflictError(survey.version);
    const now = new Date().toISOString();
    const drafts = summariesOf(item).filter((summary) => summary.status === 'draft');
    const writes: TransactItems = [
      {
        Update: {
          TableName: tableName,
          Key: keys.survey(slug, id),
          UpdateExpression: 'SET #status = :archived, archivedAt = :now, updatedAt = :now, #version = #version + :one',
          ConditionExpression: '#version = :read',
          ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
          ExpressionAttributeValues: { ':archived': 'archived', ':now': now, ':one': 1, ':read': survey.version },
        },
      },
      ...drafts.map((draft): TransactItems[number] => ({
        Update: {
          TableName: tableName,
          Key: keys.surveyVersion(slug, id, draft.id),
          UpdateExpression: 'SET surveyArchived = :yes',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':yes': true },
        },
      })),
    ];
    const counter = counterMove(slug, survey.status, 'archived');
    if (counter) writes.push(counter);
    try {
      await transactWrite(writes);
      return;
    } catch (error) {
      // Someone changed the survey between the read and the write: read again (a few times).
      if (transactionCancellationReasons(error)?.includes('ConditionalCheckFailed') && attempt < 3) continue;
      if (transactionCancellationReasons(error))
        throw new ConflictError('version_conflict', 'The survey changed while it was being archived; try again');
      throw error;
    }
  }
}

/** Published → closed, with the counters; anything else is 400 `invalid_state`. */
export async function closeSurvey(slug: string, id: string): Promise<Survey> {
  const item = await getSurveyItem(slug, id);
  const survey = toSurvey(item);
  if (survey.status === 'archived') throw surveyArchived();
  if (survey.status !== 'published')
    throw new BadRequestError('invalid_state', `Only a published survey can be closed; this one is ${survey.status}`);
  const now = new Date().toISOString();
  const writes: TransactItems = [
    {
      Update: {
        TableName: tableName,
        Key: keys.survey(slug, id),
        UpdateExpression: 'SET #status = :closed, updatedAt = :now, #version = #version + :one',
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: { ':closed': 'closed', ':now': now, ':one': 1, ':read': survey.version },
      },
    },
    counterMove(slug, 'published', 'closed') as TransactItems[number],
  ];
  try {
    await transactWrite(writes);
  } catch (error) {
    if (transactionCancellationReasons(error)?.[0] === 'ConditionalCheckFailed') throw new VersionConflictError(survey.version);
    throw error;
  }
  return { ...survey, status: 'closed', updatedAt: now, version: survey.version + 1 };
}

// ---- versions ---------------------------------------------------------------------------------

/** One version with its definition and issues: GetItem. */
export async function getVersion(slug: string, surveyId: string, versionId: string): Promise<SurveyVersion | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.surveyVersion(slug, surveyId, versionId), ConsistentRead: true }),
  );
  return Item ? toVersion(Item) : null;
}

/**
 * A new draft copied from `fromVersionId`, else the published version, else the latest. Reads the
 * survey and the source, then one transaction that numbers the draft (conditional on the count it
 * read, so two at once never share a number; the loser reads again).
 */
export async function createVersion(
  slug: string,
  surveyId: string,
  fromVersionId: string | undefined,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: SurveyVersion; replayed: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const [surveyItem, fromItem] = fromVersionId
      ? await batchGet([keys.survey(slug, surveyId), keys.surveyVersion(slug, surveyId, fromVersionId)])
      : [await getSurveyItem(slug, surveyId), undefined];
    if (!surveyItem) throw surveyNotFound();
    const survey = toSurvey(surveyItem);
    if (survey.status === 'archived') throw surveyArchived();
    const summaries = summariesOf(surveyItem);
    if (summaries.length >= SURVEY_LIMITS.versions) {
      throw new ConflictError('version_limit', `A survey keeps at most ${SURVEY_LIMITS.versions} versions; discard a draft first`);
    }
    let source = fromItem;
    if (fromVersionId && !source) throw new BadRequestError('invalid_body', 'fromVersionId names no version of this survey');
    if (!source) {
      const sourceId = survey.publishedVersionId ?? summaries[0]?.id;
      if (!sourceId) throw versionNotFound();
      const { Item } = await dynamo.send(
        new GetCommand({ TableName: tableName, Key: keys.surveyVersion(slug, surveyId, sourceId), ConsistentRead: true }),
      );
      if (!Item) throw versionNotFound();
      source = Item;
    }
    const count = (surveyItem.versionCount as number | undefined) ?? summaries.length;
    const now = new Date().toISOString();
    const copied = toVersion(source);
    const version: SurveyVersion = {
      ...copied,
      id: newSurveyId(),
      number: count + 1,
      status: 'draft',
      basedOnVersionId: copied.id,
      revision: 1,
      createdBy: keyId,
      createdAt: now,
      updatedAt: now,
      publishedAt: null,
    };
    const summary: StoredSummary = {
      id: version.id,
      number: version.number,
      status: 'draft',
      basedOnVersionId: copied.id,
      createdBy: keyId,
      createdAt: now,
    };
    try {
      const writes: TransactItems = [
        {
          Put: {
            TableName: tableName,
            Item: versionItem(slug, version, source.content as Uint8Array, survey.language),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Update: {
            TableName: tableName,
            Key: keys.survey(slug, surveyId),
            UpdateExpression: 'SET versions.#id = :summary, versionCount = :next',
            ConditionExpression:
              'attribute_exists(pk) AND #status <> :archived AND (versionCount = :count OR attribute_not_exists(versionCount))',
            ExpressionAttributeNames: { '#id': version.id, '#status': 'status' },
            ExpressionAttributeValues: { ':summary': summary, ':next': count + 1, ':count': count, ':archived': 'archived' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
      ];
      // The Idempotency-Key's scope is this survey's path, so a key is per survey.
      return await transactCreate(slug, writes, version, idempotency, TRANSACTION_ATTEMPTS).then(({ response, replayed }) => ({
        version: response,
        replayed,
      }));
    } catch (error) {
      const current = cancelledItem(error, 1);
      if (current === null) throw error;
      if (!current) throw surveyNotFound();
      if (current.status?.S === 'archived') throw surveyArchived();
      if (attempt >= 3) throw new ConflictError('version_conflict', 'Other versions were being created at the same time; try again');
    }
  }
}

/** Why a version write's condition failed, from the item it saw. */
function versionConditionFailure(current: RawItem | undefined, languages: readonly string[] = []): Error {
  if (!current) return versionNotFound();
  if (current.surveyArchived?.BOOL) return surveyArchived();
  const status = current.status?.S ?? 'draft';
  if (status !== 'draft') return versionLocked(status);
  const language = current.surveyLanguage?.S;
  if (language && languages.length > 0 && !languages.includes(language)) {
    return new ValidationError('invalid_body', [
      { path: 'body.definition.languages', message: `must include ${language}, the survey's language` },
    ]);
  }
  return new VersionConflictError(Number(current.revision?.N ?? 0));
}

/**
 * Replaces a draft's definition in one conditional UpdateItem: the draft must exist, still be a
 * draft of a survey not archived, and be at the revision the client read (If-Match).
 */
export async function replaceVersion(
  slug: string,
  surveyId: string,
  versionId: string,
  content: { definition: SurveyDefinition; issues: SurveyVersion['issues'] },
  revisions: number[],
): Promise<SurveyVersion> {
  const stored = compressedContent(content.definition, content.issues);
  const errorCount = content.issues.filter((issue) => issue.severity === 'error').length;
  const revisionValues = Object.fromEntries(revisions.map((revision, i) => [`:r${i}`, revision]));
  const languageValues = Object.fromEntries(content.definition.languages.map((language, i) => [`:l${i}`, language]));
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.surveyVersion(slug, surveyId, versionId),
        UpdateExpression:
          'SET content = :content, revision = revision + :one, updatedAt = :now, errorCount = :errors, warningCount = :warnings',
        ConditionExpression:
          'attribute_exists(pk) AND #status = :draft AND attribute_not_exists(surveyArchived) ' +
          `AND (attribute_not_exists(surveyLanguage) OR surveyLanguage IN (${Object.keys(languageValues).join(', ')})) AND revision IN (${Object.keys(revisionValues).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':content': stored,
          ':one': 1,
          ':now': new Date().toISOString(),
          ':errors': errorCount,
          ':warnings': content.issues.length - errorCount,
          ':draft': 'draft',
          ...revisionValues,
          ...languageValues,
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toVersion(Attributes as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailure(error)) throw versionConditionFailure(error.Item as RawItem | undefined, content.definition.languages);
    throw error;
  }
}

/** Discards a draft and its summary, atomically. */
export async function deleteVersion(slug: string, surveyId: string, versionId: string): Promise<void> {
  try {
    await transactWrite([
      {
        Delete: {
          TableName: tableName,
          Key: keys.surveyVersion(slug, surveyId, versionId),
          ConditionExpression: 'attribute_exists(pk) AND #status = :draft AND attribute_not_exists(surveyArchived)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
      {
        Update: {
          TableName: tableName,
          Key: keys.survey(slug, surveyId),
          UpdateExpression: 'REMOVE versions.#id',
          ConditionExpression: 'attribute_exists(pk) AND #status <> :archived',
          ExpressionAttributeNames: { '#id': versionId, '#status': 'status' },
          ExpressionAttributeValues: { ':archived': 'archived' },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
  } catch (error) {
    const version = cancelledItem(error, 0);
    if (version !== null) throw versionConditionFailure(version);
    const survey = cancelledItem(error, 1);
    if (survey !== null) throw survey ? surveyArchived() : surveyNotFound();
    throw error;
  }
}

export interface PublishPlan {
  survey: Survey;
  surveyItem: Record<string, unknown>;
  version: SurveyVersion;
  /** The version published now, when another one. */
  published: SurveyVersion | null;
}

/** Everything publish decides on: the survey, the version, and the version now published. */
export async function readForPublish(slug: string, surveyId: string, versionId: string): Promise<PublishPlan> {
  const [surveyItem, versionItem] = await batchGet([keys.survey(slug, surveyId), keys.surveyVersion(slug, surveyId, versionId)]);
  if (!surveyItem) throw surveyNotFound();
  const survey = toSurvey(surveyItem);
  if (survey.status === 'archived') throw surveyArchived();
  if (!versionItem) throw versionNotFound();
  const version = toVersion(versionItem);
  let published: SurveyVersion | null = null;
  if (survey.publishedVersionId && survey.publishedVersionId !== versionId) {
    published = await getVersion(slug, surveyId, survey.publishedVersionId);
  }
  return { survey, surveyItem, version, published };
}

/**
 * Publishes (or republishes) a version in one transaction, conditional on the survey and the
 * version being as read: the version becomes published, the one published before superseded, the
 * survey published, and the counters follow.
 */
export async function publishVersion(slug: string, plan: PublishPlan): Promise<{ survey: Survey; version: SurveyVersion }> {
  const { survey, version, published } = plan;
  const now = new Date().toISOString();
  const names: Record<string, string> = { '#status': 'status', '#version': 'version', '#new': version.id };
  const values: Record<string, unknown> = { ':published': 'published', ':now': now, ':one': 1, ':read': survey.version, ':id': version.id };
  const set = [
    '#status = :published',
    'publishedVersionId = :id',
    'publishedAt = :now',
    'updatedAt = :now',
    '#version = #version + :one',
    'versions.#new.#status = :published',
    'versions.#new.publishedAt = :now',
  ];
  if (published) {
    names['#old'] = published.id;
    values[':superseded'] = 'superseded';
    set.push('versions.#old.#status = :superseded');
  }
  const writes: TransactItems = [
    {
      Update: {
        TableName: tableName,
        Key: keys.survey(slug, survey.id),
        UpdateExpression: `SET ${set.join(', ')}`,
        ConditionExpression: '#version = :read',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    {
      Update: {
        TableName: tableName,
        Key: keys.surveyVersion(slug, survey.id, version.id),
        UpdateExpression: 'SET #status = :published, publishedAt = :now',
        ConditionExpression: 'revision = :revision AND #status = :was',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':published': 'published', ':now': now, ':revision': version.revision, ':was': version.status },
      },
    },
  ];
  if (published) {
    writes.push({
      Update: {
        TableName: tableName,
        Key: keys.surveyVersion(slug, survey.id, published.id),
        UpdateExpression: 'SET #status = :superseded',
        ConditionExpression: '#status = :published',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':superseded': 'superseded', ':published': 'published' },
      },
    });
  }
  const counter = counterMove(slug, survey.status, 'published');
  if (counter) writes.push(counter);
  try {
    await transactWrite(writes);
  } catch (error) {
    if (transactionCancellationReasons(error)?.includes('ConditionalCheckFailed')) {
      throw new ConflictError('version_conflict', 'The survey or the version changed while publishing; read them again and retry');
    }
    throw error;
  }
  return {
    survey: {
      ...survey,
      status: 'published',
      publishedVersionId: version.id,
      publishedAt: now,
      updatedAt: now,
      version: survey.version + 1,
    },
    version: { ...version, status: 'published', publishedAt: now },
  };
}

// ---- designs and audience ---------------------------------------------------------------------

export async function listDesigns(slug: string): Promise<SurveyDesign[]> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.surveyDesigns(slug), ConsistentRead: true }));
  return designsOf(Item);
}

/** Adds a design as one attribute of the designs item, counted against the limit, in one UpdateItem. */
/**
 * Adds a design as one attribute of the designs item, counted against the limit: one transaction
 * (with the Idempotency-Key's record when one is sent).
 */
export async function createDesign(
  slug: string,
  input: Omit<StoredDesign, 'id' | 'isDefault' | 'createdAt' | 'updatedAt'>,
  idempotency: IdempotentRequest | undefined,
): Promise<{ design: SurveyDesign; replayed: boolean }> {
  const now = new Date().toISOString();
  const design: StoredDesign = { ...input, id: newSurveyId(), isDefault: false, createdAt: now, updatedAt: now };
  const writes: TransactItems = [
    {
      Update: {
        TableName: tableName,
        Key: keys.surveyDesigns(slug),
        UpdateExpression: 'SET entity = :entity, #design = :design, designCount = if_not_exists(designCount, :zero) + :one',
        ConditionExpression: 'attribute_not_exists(designCount) OR designCount < :max',
        ExpressionAttributeNames: { '#design': designAttribute(design.id) },
        ExpressionAttributeValues: { ':entity': 'SurveyDesigns', ':design': design, ':zero': 0, ':one': 1, ':max': SURVEY_LIMITS.designs },
      },
    },
  ];
  try {
    const { response, replayed } = await transactCreate(slug, writes, toDesign(design), idempotency, TRANSACTION_ATTEMPTS);
    return { design: response, replayed };
  } catch (error) {
    if (cancelledItem(error, 0) !== null) {
      throw new ConflictError('design_limit', `A workspace has at most ${SURVEY_LIMITS.designs} designs besides the default`);
    }
    throw error;
  }
}

const DESIGN_FIELDS = ['name', 'primaryColor', 'backgroundColor', 'logoUrl', 'font'] as const;

export async function updateDesign(slug: string, designId: string, patch: DesignPatch): Promise<SurveyDesign> {
  const attribute = designAttribute(designId);
  const names: Record<string, string> = { '#design': attribute, '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':now': new Date().toISOString() };
  const set = ['#design.#updatedAt = :now'];
  const remove: string[] = [];
  for (const field of DESIGN_FIELDS) {
    const value = patch[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null) remove.push(`#design.#${field}`);
    else {
      values[`:${field}`] = value;
      set.push(`#design.#${field} = :${field}`);
    }
  }
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.surveyDesigns(slug),
        UpdateExpression: `SET ${set.join(', ')}${remove.length > 0 ? ` REMOVE ${remove.join(', ')}` : ''}`,
        ConditionExpression: 'attribute_exists(#design)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toDesign((Attributes as Record<string, unknown>)[attribute] as StoredDesign);
  } catch (error) {
    if (isConditionFailure(error)) throw designNotFound();
    throw error;
  }
}

function audienceOf(item: Record<string, unknown> | undefined): AudienceAttribute[] {
  return typeof item?.attributes === 'string' ? (JSON.parse(item.attributes) as AudienceAttribute[]) : [];
}

export async function getAudienceAttributes(slug: string): Promise<AudienceAttribute[]> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.surveyAudience(slug), ConsistentRead: true }));
  return audienceOf(Item);
}
