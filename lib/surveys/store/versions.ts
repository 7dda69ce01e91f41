/**
 * Survey versions: `SURVEYVERSION#<surveyId>#<id>` items holding a definition and its issues,
 * compressed (record.ts), with a summary of each in its survey's `versions` map. Round trips:
 *   read, save, discard: 1
 *   new version: 2–3 (reads the survey and the version it copies, then one transaction; the
 *   rules that decide whether it may be added run between, in ../commands/create-version.ts)
 * A failed condition returns the current item, which tells 404 from 409 without another read.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isConditionFailure } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { failedCondition, TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import { surveyEntity, surveyVersionEntity } from '../entities.ts';
import { definitionTooLarge, surveyArchived, surveyNotFound } from '../errors.ts';
import {
  compressContent,
  newSurveyId,
  type StoredSummary,
  storedContentOf,
  summariesOf,
  toSurvey,
  toVersion,
  VERSION_ENTITY,
} from '../record.ts';
import type { Survey, SurveyVersion, VersionSummary } from '../schemas.ts';
import { versionWriteFailure } from '../state-rules.ts';

type Content = { definition: SurveyDefinition; issues: SurveyVersion['issues'] };

/** The content as a version item stores it; 413 `definition_too_large` when even compressed it would not fit. */
function storedContent(content: Content): { content: Uint8Array; contentEncoding?: string } {
  const stored = compressContent(content);
  if (!stored) throw definitionTooLarge();
  return stored;
}

/** A new draft version record (its content still to be stored). */
export function newVersion(
  at: { surveyId: string; number: number; basedOnVersionId: string | null; keyId: string; now: string; nowMs?: number },
  content: Content,
): SurveyVersion {
  return {
    id: newSurveyId(at.nowMs),
    surveyId: at.surveyId,
    number: at.number,
    status: 'draft',
    basedOnVersionId: at.basedOnVersionId,
    revision: 1,
    definition: content.definition,
    issues: content.issues,
    createdBy: at.keyId,
    createdAt: at.now,
    updatedAt: at.now,
    publishedAt: null,
  };
}

/**
 * The Put of a new version item. It carries the survey's language, so a save can require the
 * definition to include it in its own condition, without reading the survey. `stored` copies
 * another version's stored content as it is (no recompression).
 */
export function versionPut(
  workspace: string,
  version: SurveyVersion,
  surveyLanguage: string,
  stored: { content: Uint8Array; contentEncoding?: string } = storedContent(version),
): TransactWrite {
  const errorCount = version.issues.filter((issue) => issue.severity === 'error').length;
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...surveyVersionEntity.keys.version(workspace, version.surveyId, version.id),
        entity: VERSION_ENTITY,
        surveyLanguage,
        id: version.id,
        surveyId: version.surveyId,
        number: version.number,
        status: version.status,
        basedOnVersionId: version.basedOnVersionId ?? undefined,
        revision: version.revision,
        ...stored,
        errorCount,
        warningCount: version.issues.length - errorCount,
        createdBy: version.createdBy,
        createdAt: version.createdAt,
        updatedAt: version.updatedAt,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** One version with its definition and issues, or null: GetItem. */
export async function findVersion(workspace: string, surveyId: string, versionId: string): Promise<SurveyVersion | null> {
  const item = await readVersionItem(workspace, surveyId, versionId);
  return item ? toVersion(item) : null;
}

async function readVersionItem(workspace: string, surveyId: string, versionId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: surveyVersionEntity.keys.version(workspace, surveyId, versionId), ConsistentRead: true }),
  );
  return Item;
}

/** A version to copy: its record and its content as stored (copied without recompression). */
export interface VersionSource {
  version: SurveyVersion;
  stored: { content: Uint8Array; contentEncoding?: string };
}

const sourceOf = (item: Record<string, unknown>): VersionSource => ({ version: toVersion(item), stored: storedContentOf(item) });

/** What a new version is based on, as read: the survey, its summaries and count, and `fromVersionId`'s version when named. */
export interface VersionBasis {
  survey: Survey;
  summaries: VersionSummary[];
  versionCount: number;
  from: VersionSource | null;
}

/** The survey (404 when there is none) and, when named, the version to copy: one GetItem, or one BatchGetItem. */
export async function getVersionBasis(workspace: string, surveyId: string, fromVersionId: string | undefined): Promise<VersionBasis> {
  const [surveyItem, fromItem] = fromVersionId
    ? await getMany([surveyEntity.keys.survey(workspace, surveyId), surveyVersionEntity.keys.version(workspace, surveyId, fromVersionId)])
    : [
        (
          await dynamo.send(
            new GetCommand({ TableName: tableName, Key: surveyEntity.keys.survey(workspace, surveyId), ConsistentRead: true }),
          )
        ).Item,
      ];
  if (!surveyItem) throw surveyNotFound();
  const summaries = summariesOf(surveyItem);
  return {
    survey: toSurvey(surveyItem),
    summaries,
    versionCount: (surveyItem.versionCount as number | undefined) ?? summaries.length,
    from: fromItem ? sourceOf(fromItem) : null,
  };
}

/** A version to copy, or null: GetItem. */
export async function findVersionSource(workspace: string, surveyId: string, versionId: string): Promise<VersionSource | null> {
  const item = await readVersionItem(workspace, surveyId, versionId);
  return item ? sourceOf(item) : null;
}

/**
 * Adds a draft copied from `from`, numbered after the count in `basis`: one transaction, conditional
 * on that count (two at once never share a number) and on the survey not being archived. A survey
 * where either changed since the read is handed back as it stands.
 */
export async function addVersion(
  workspace: string,
  basis: VersionBasis,
  from: VersionSource,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: SurveyVersion; replayed: boolean } | { surveyChanged: Record<string, unknown> | undefined }> {
  const { survey, versionCount: count } = basis;
  const now = new Date().toISOString();
  const copied = from.version;
  const version = newVersion({ surveyId: survey.id, number: count + 1, basedOnVersionId: copied.id, keyId, now }, copied);
  const summary: StoredSummary = {
    id: version.id,
    number: version.number,
    status: 'draft',
    basedOnVersionId: copied.id,
    createdBy: keyId,
    createdAt: now,
  };
  // The Idempotency-Key's scope is this survey's path, so a key is per survey.
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        version: versionPut(workspace, version, survey.language, from.stored),
        survey: {
          Update: {
            TableName: tableName,
            Key: surveyEntity.keys.survey(workspace, survey.id),
            ...update()
              .set(['versions', version.id], summary)
              .set('versionCount', count + 1)
              .build({
                expression:
                  'attribute_exists(pk) AND #status <> :archived AND (versionCount = :count OR attribute_not_exists(versionCount))',
                names: { '#status': 'status' },
                values: { ':count': count, ':archived': 'archived' },
              }),
          },
        },
      },
      version,
      idempotency,
    );
    return { version: response, replayed };
  } catch (error) {
    const changed = failedCondition(error, 'survey');
    if (!changed) throw error;
    return { surveyChanged: changed.current };
  }
}

/**
 * Replaces a draft's definition in one conditional UpdateItem: the draft must exist, still be a
 * draft of a survey not archived, and be at the revision the client read (If-Match).
 */
export async function writeVersionDefinition(
  workspace: string,
  surveyId: string,
  versionId: string,
  content: Content,
  revisions: number[],
): Promise<SurveyVersion> {
  const errorCount = content.issues.filter((issue) => issue.severity === 'error').length;
  const revisionValues = Object.fromEntries(revisions.map((revision, i) => [`:r${i}`, revision]));
  const languageValues = Object.fromEntries(content.definition.languages.map((language, i) => [`:l${i}`, language]));
  const stored = storedContent(content);
  const changed = update()
    .set('content', stored.content)
    .set('contentEncoding', stored.contentEncoding)
    .increment('revision')
    .set('updatedAt', new Date().toISOString())
    .set('errorCount', errorCount)
    .set('warningCount', content.issues.length - errorCount);
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: surveyVersionEntity.keys.version(workspace, surveyId, versionId),
        ...changed.build({
          expression:
            'attribute_exists(pk) AND #status = :draft AND attribute_not_exists(surveyArchived) ' +
            `AND (attribute_not_exists(surveyLanguage) OR surveyLanguage IN (${Object.keys(languageValues).join(', ')})) AND revision IN (${Object.keys(revisionValues).join(', ')})`,
          names: { '#status': 'status' },
          values: { ':draft': 'draft', ...revisionValues, ...languageValues },
        }),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toVersion(Attributes as Record<string, unknown>);
  } catch (error) {
    if (isConditionFailure(error)) throw versionWriteFailure(error.Item && unmarshall(error.Item), content.definition.languages);
    throw error;
  }
}

/** Discards a draft and its summary, atomically. */
export async function deleteVersion(workspace: string, surveyId: string, versionId: string): Promise<void> {
  try {
    await transact({
      version: {
        Delete: {
          TableName: tableName,
          Key: surveyVersionEntity.keys.version(workspace, surveyId, versionId),
          ConditionExpression: 'attribute_exists(pk) AND #status = :draft AND attribute_not_exists(surveyArchived)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
        },
      },
      survey: {
        Update: {
          TableName: tableName,
          Key: surveyEntity.keys.survey(workspace, surveyId),
          ...update()
            .remove(['versions', versionId])
            .build({
              expression: 'attribute_exists(pk) AND #status <> :archived',
              names: { '#status': 'status' },
              values: { ':archived': 'archived' },
            }),
        },
      },
    });
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    if (error.failed('version')) throw versionWriteFailure(error.current('version') ?? undefined);
    throw error.current('survey') ? surveyArchived() : surveyNotFound();
  }
}
