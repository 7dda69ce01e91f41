/**
 * Surveys: `SURVEY#<id>` items, each with a map of its version summaries, in the workspace's
 * partition (surveyEntity.keys.survey*), so an id of another workspace is simply not found. Round trips (the
 * README's table says the same):
 *   list, read: 1 (read is one BatchGetItem of the survey and the designs)
 *   create: 2 (reads the designs it returns, then one transaction)
 *   update: 1, or 2 with designId/targetingRules (the command reads what it checks them against, and
 *   for targetingRules the survey too: the write is then one transaction with its collecting copies)
 *   archive, close: 2 (read the status they change, then a transaction that also moves the status
 *   counters, conditional on that read; the rules that decide run between, in ../commands/)
 * A failed condition returns the current item, which tells 404 from 409 without another read.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isConditionFailure, type VersionPrecondition, versionCondition } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { counted, walkCountedList } from '../../platform/data/list-walk.ts';
import { projectionWith } from '../../platform/data/projection.ts';
import { failedCondition, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { rulesDigest } from '../collecting-state.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import type { AudienceAttribute } from '../engine/targeting.ts';
import { surveyCounterEntity, surveyEntity, surveyVersionEntity } from '../entities.ts';
import { surveyConditionFailure, surveyNotFound } from '../errors.ts';
import {
  COUNTER_ENTITY,
  defaultDesign,
  designsOf,
  newSurveyId,
  type StoredSummary,
  SURVEY_ENTITY,
  SURVEY_RECORD_ATTRIBUTES,
  summariesOf,
  toDesign,
  toSurvey,
} from '../record.ts';
import type { ListedStatus, Survey, SurveyDesign, SurveyPatch, SurveyVersion, VersionSummary } from '../schemas.ts';
import { archiveRaced } from '../state-rules.ts';
import { audienceKey, audienceOf } from './audience.ts';
import { copyWrites } from './collecting-copies.ts';
import { addDesignOnce, designsKey } from './designs.ts';
import { counterMove, LISTED_STATUSES, totalOf } from './status-counts.ts';
import { newVersion, versionPut } from './versions.ts';

const SURVEY_CREATE_SCOPE = 'POST /surveys';

/** A write conditional on the survey as read that found it changed: the survey item as it stands (undefined: none). */
export interface SurveyChanged {
  surveyChanged: Record<string, unknown> | undefined;
}

/** The failure of a write whose `survey` condition failed, as a `SurveyChanged`; any other failure is thrown on. */
function surveyChangedOrThrow(error: unknown): SurveyChanged {
  const changed = failedCondition(error, 'survey');
  if (!changed) throw error;
  return { surveyChanged: changed.current };
}

/** The fields a PATCH may change; no other name of the body reaches the expression. */
const PATCHABLE = ['name', 'nameAr', 'themeLogoUrl', 'themePrimaryColor', 'designId', 'targetingRules'] as const;

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
export async function writeNewSurvey(
  workspace: string,
  input: { name: string; language: Survey['language']; definition: SurveyDefinition; issues: SurveyVersion['issues'] },
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<CreatedSurvey & { replayed: boolean }> {
  const { Item: designsItem } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: designsKey(workspace), ConsistentRead: true }),
  );
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const surveyId = newSurveyId(nowMs);
  const starter = defaultDesign(workspace, now);
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
  const version = newVersion({ surveyId, number: 1, basedOnVersionId: null, keyId, now, nowMs }, input);
  const summary: StoredSummary = { id: version.id, number: 1, status: 'draft', createdBy: keyId, createdAt: now };
  const { response, replayed } = await createOnce<CreatedSurvey>(
    workspace,
    {
      survey: {
        Put: {
          TableName: tableName,
          Item: {
            ...surveyEntity.keys.survey(workspace, surveyId),
            entity: SURVEY_ENTITY,
            id: surveyId,
            name: survey.name,
            language: survey.language,
            version: 1,
            status: 'draft',
            designId: survey.designId,
            createdAt: now,
            updatedAt: now,
            versions: { [version.id]: summary },
            versionCount: 1,
            createdByKeyId: keyId,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      version: versionPut(workspace, version, input.language),
      defaultDesign: addDesignOnce(workspace, starter),
      counter: counterMove(workspace, null, 'draft'),
    },
    { survey, version, designs },
    idempotency && { ...idempotency, scope: SURVEY_CREATE_SCOPE },
  );
  return { ...response, replayed };
}

export interface SurveyWithVersions {
  survey: Survey;
  versions: VersionSummary[];
  designs: SurveyDesign[];
}

/** The survey (archived ones too), its version summaries and the workspace's designs, or null: one BatchGetItem. */
export async function findSurvey(workspace: string, id: string): Promise<SurveyWithVersions | null> {
  const [item, designsItem] = await getMany([surveyEntity.keys.survey(workspace, id), designsKey(workspace)]);
  if (!item) return null;
  return { survey: toSurvey(item), versions: summariesOf(item), designs: designsOf(designsItem) };
}

/**
 * The status of each named survey that exists (a missing entry: none in this workspace, which is how
 * another workspace's survey looks too): one BatchGetItem of the survey items, projected to their status.
 */
export async function findSurveyStatuses(workspace: string, ids: readonly string[]): Promise<Map<string, Survey['status']>> {
  const items = await getMany(
    ids.map((id) => surveyEntity.keys.survey(workspace, id)),
    { attributes: ['entity', 'id', 'status'] },
  );
  return new Map(items.flatMap((item) => (item?.entity === SURVEY_ENTITY ? [[item.id as string, item.status as Survey['status']]] : [])));
}

/** The survey item as stored (404 when there is none). */
async function getSurveyItem(workspace: string, id: string): Promise<Record<string, unknown>> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: surveyEntity.keys.survey(workspace, id), ConsistentRead: true }),
  );
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
 * statuses): the counted list walk over the descending range whose first item is the status
 * counter. Archived surveys are filtered out by DynamoDB and never counted.
 */
export async function listSurveys(
  workspace: string,
  { status, ...page }: PageStart & { status?: ListedStatus | undefined },
): Promise<SurveyPage> {
  const statuses = status ? [status] : LISTED_STATUSES;
  const statusValues = Object.fromEntries(statuses.map((value, i) => [`:s${i}`, value]));
  const shape = projectionWith(SURVEY_RECORD_ATTRIBUTES, ['sk', 'entity', 'draftCount', 'publishedCount', 'closedCount']);
  const statusName = `#p${SURVEY_RECORD_ATTRIBUTES.indexOf('status')}`;
  const { items, ...rest } = await walkCountedList(
    {
      query: {
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        FilterExpression: `entity = :counter OR ${statusName} IN (${Object.keys(statusValues).join(', ')})`,
        ExpressionAttributeValues: {
          ':pk': keys.workspacePk(workspace),
          ':from': surveyEntity.keys.list.from,
          ':to': surveyEntity.keys.list.to,
          ':counter': COUNTER_ENTITY,
          ...statusValues,
        },
        ...shape,
        ScanIndexForward: false,
        ConsistentRead: true,
      },
      isCounter: (item) => item.entity === COUNTER_ENTITY,
      totalOf: ([counter]) => totalOf(counter, statuses),
      readCounters: async () =>
        counted(
          (
            await dynamo.send(
              new GetCommand({ TableName: tableName, Key: surveyCounterEntity.keys.counter(workspace), ConsistentRead: true }),
            )
          ).Item,
        ),
      cursorInRange: (after) =>
        after.pk === keys.workspacePk(workspace) && typeof after.sk === 'string' && after.sk.startsWith(surveyEntity.keys.list.from),
      keyOf: (item) => ({ pk: keys.workspacePk(workspace), sk: item.sk as string }),
    },
    page,
  );
  return { surveys: items.map(toSurvey), ...rest };
}

/**
 * What PATCH checks `designId` and `targetingRules` against, read in one round trip: the designs, the
 * audience catalog and, for a targeting change, the survey itself (its collecting copies are written
 * from it, collecting-copies.ts).
 */
export async function listDesignsAndAudience(
  workspace: string,
  surveyId?: string,
): Promise<{ designs: SurveyDesign[]; audience: AudienceAttribute[]; surveyItem: Record<string, unknown> | undefined }> {
  const [designsItem, audienceItem, surveyItem] = await getMany([
    designsKey(workspace),
    audienceKey(workspace),
    ...(surveyId ? [surveyEntity.keys.survey(workspace, surveyId)] : []),
  ]);
  return { designs: designsOf(designsItem), audience: audienceOf(audienceItem), surveyItem };
}

const encodePatch = (field: string, value: unknown) => (field === 'targetingRules' ? JSON.stringify(value) : value);

/**
 * Applies a PATCH that leaves the targeting rules alone in one conditional UpdateItem; archived
 * surveys are read-only (a targeting change is `writeTargeting`).
 */
export async function writeSurveyChanges(
  workspace: string,
  id: string,
  patch: SurveyPatch,
  precondition: VersionPrecondition,
): Promise<Survey> {
  const changed = update().increment('version').set('updatedAt', new Date().toISOString()).patch(patch, PATCHABLE, { encode: encodePatch });
  const version = versionCondition(precondition);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: surveyEntity.keys.survey(workspace, id),
        ...changed.build({
          expression: `attribute_exists(pk) AND #status <> :archived${version.expression}`,
          names: { '#status': 'status', ...version.names },
          values: { ':archived': 'archived', ...version.values },
        }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toSurvey(Attributes as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailure(error)) throw surveyConditionFailure(error.Item && unmarshall(error.Item));
    throw error;
  }
}

/**
 * A PATCH that changes the targeting rules, on the survey item as read (`current`): one transaction
 * of the survey, conditional on the version read (which makes the answer computable without reading
 * again), and its collecting copies. A survey changed since the read is handed back as it stands.
 */
export async function writeTargeting(
  workspace: string,
  id: string,
  patch: SurveyPatch,
  current: Record<string, unknown>,
): Promise<{ survey: Survey } | SurveyChanged> {
  const now = new Date().toISOString();
  const changed = update().increment('version').set('updatedAt', now).patch(patch, PATCHABLE, { encode: encodePatch });
  try {
    await transact({
      survey: {
        Update: {
          TableName: tableName,
          Key: surveyEntity.keys.survey(workspace, id),
          ...changed.build({ expression: '#version = :read', names: { '#version': 'version' }, values: { ':read': current.version } }),
        },
      },
      ...copyWrites(workspace, id, { rulesDigest: rulesDigest(patch.targetingRules ?? null) }),
    });
  } catch (error) {
    return surveyChangedOrThrow(error);
  }
  const written: Record<string, unknown> = { ...current, version: Number(current.version) + 1, updatedAt: now };
  for (const field of PATCHABLE) {
    const value = patch[field];
    if (value === null) delete written[field];
    else if (value !== undefined) written[field] = encodePatch(field, value);
  }
  return { survey: toSurvey(written) };
}

/** The survey's own write of a status change: conditional on the version that was read. */
function statusChange(workspace: string, survey: Survey, set: Record<string, unknown>) {
  const changed = update().increment('version');
  for (const [attribute, value] of Object.entries(set)) changed.set(attribute, value);
  return {
    Update: {
      TableName: tableName,
      Key: surveyEntity.keys.survey(workspace, survey.id),
      ...changed.build({ expression: '#version = :read', names: { '#version': 'version' }, values: { ':read': survey.version } }),
    },
  };
}

/** The survey as stored, for a status change (404 when there is none): the record and its drafts' ids. */
export async function getSurveyForStatusChange(workspace: string, id: string): Promise<{ survey: Survey; draftIds: string[] }> {
  const item = await getSurveyItem(workspace, id);
  return { survey: toSurvey(item), draftIds: summariesOf(item).flatMap((summary) => (summary.status === 'draft' ? [summary.id] : [])) };
}

/**
 * Archives the survey as read (its status decides which count to lower, its drafts are marked so
 * they refuse saves): one transaction conditional on the version read. False when the survey (or a
 * draft) changed since; 409 when racing writes kept winning.
 */
export async function writeArchive(workspace: string, { survey, draftIds }: { survey: Survey; draftIds: string[] }): Promise<boolean> {
  const now = new Date().toISOString();
  try {
    await transact(
      {
        survey: statusChange(workspace, survey, { status: 'archived', archivedAt: now, updatedAt: now }),
        ...Object.fromEntries(
          draftIds.map((draftId) => [
            `draft:${draftId}`,
            {
              Update: {
                TableName: tableName,
                Key: surveyVersionEntity.keys.version(workspace, survey.id, draftId),
                ...update().set('surveyArchived', true).build({ expression: 'attribute_exists(pk)' }),
              },
            },
          ]),
        ),
        counter: counterMove(workspace, survey.status, 'archived'),
        ...copyWrites(workspace, survey.id, { status: 'archived' }),
      },
      { contended: archiveRaced },
    );
  } catch (error) {
    if (error instanceof TransactionCancelledError) return false;
    throw error;
  }
  return true;
}

/** Published → closed as read, with the counters: one transaction conditional on the version read (409 when it changed). */
export async function writeClose(workspace: string, survey: Survey): Promise<Survey> {
  const now = new Date().toISOString();
  try {
    await transact({
      survey: statusChange(workspace, survey, { status: 'closed', updatedAt: now }),
      counter: counterMove(workspace, 'published', 'closed'),
      ...copyWrites(workspace, survey.id, { status: 'closed' }),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('survey')) throw new VersionConflictError(survey.version);
    throw error;
  }
  return { ...survey, status: 'closed', updatedAt: now, version: survey.version + 1 };
}
