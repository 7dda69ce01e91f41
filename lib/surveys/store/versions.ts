/**
 * Survey versions: `SURVEYVERSION#<surveyId>#<id>` items holding a definition and its issues,
 * compressed (record.ts), with a summary of each in its survey's `versions` map. Round trips:
 *   read, save, discard: 1
 *   new version: 2–3 (reads the survey and the version it copies, then one transaction)
 * A failed condition returns the current item, which tells 404 from 409 without another read.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { isConditionFailure } from '../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { keys } from '../../platform/data/keys.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { BadRequestError, ConflictError, ValidationError, VersionConflictError } from '../../platform/errors.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import { definitionTooLarge, surveyArchived, surveyNotFound, versionLocked, versionNotFound } from '../errors.ts';
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
import { SURVEY_LIMITS, type SurveyVersion } from '../schemas.ts';

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
        ...keys.surveyVersion(workspace, version.surveyId, version.id),
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
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: keys.surveyVersion(workspace, surveyId, versionId), ConsistentRead: true }),
  );
  return Item ? toVersion(Item) : null;
}

/**
 * A new draft copied from `fromVersionId`, else the published version, else the latest. Reads the
 * survey and the source, then one transaction that numbers the draft (conditional on the count it
 * read, so two at once never share a number; the loser reads again).
 */
export async function createVersion(
  workspace: string,
  surveyId: string,
  fromVersionId: string | undefined,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ version: SurveyVersion; replayed: boolean }> {
  for (let attempt = 1; ; attempt++) {
    const [surveyItem, fromItem] = fromVersionId
      ? await getMany([keys.survey(workspace, surveyId), keys.surveyVersion(workspace, surveyId, fromVersionId)])
      : [
          (await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.survey(workspace, surveyId), ConsistentRead: true }))).Item,
          undefined,
        ];
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
        new GetCommand({ TableName: tableName, Key: keys.surveyVersion(workspace, surveyId, sourceId), ConsistentRead: true }),
      );
      if (!Item) throw versionNotFound();
      source = Item;
    }
    const count = (surveyItem.versionCount as number | undefined) ?? summaries.length;
    const now = new Date().toISOString();
    const copied = toVersion(source);
    const version = newVersion({ surveyId, number: count + 1, basedOnVersionId: copied.id, keyId, now }, copied);
    const summary: StoredSummary = {
      id: version.id,
      number: version.number,
      status: 'draft',
      basedOnVersionId: copied.id,
      createdBy: keyId,
      createdAt: now,
    };
    try {
      // The Idempotency-Key's scope is this survey's path, so a key is per survey.
      const { response, replayed } = await createOnce(
        workspace,
        {
          version: versionPut(workspace, version, survey.language, storedContentOf(source)),
          survey: {
            Update: {
              TableName: tableName,
              Key: keys.survey(workspace, surveyId),
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
      if (!(error instanceof TransactionCancelledError) || !error.failed('survey')) throw error;
      const current = error.current('survey');
      if (!current) throw surveyNotFound();
      if (current.status === 'archived') throw surveyArchived();
      if (attempt >= 3) throw new ConflictError('version_conflict', 'Other versions were being created at the same time; try again');
    }
  }
}

/** Why a version write's condition failed, from the item it saw. */
function versionConditionFailure(current: Record<string, unknown> | undefined, languages: readonly string[] = []): Error {
  if (!current) return versionNotFound();
  if (current.surveyArchived === true) return surveyArchived();
  const status = (current.status as string | undefined) ?? 'draft';
  if (status !== 'draft') return versionLocked(status);
  const language = current.surveyLanguage as string | undefined;
  if (language && languages.length > 0 && !languages.includes(language)) {
    return new ValidationError('invalid_body', [
      { path: 'body.definition.languages', message: `must include ${language}, the survey's language` },
    ]);
  }
  return new VersionConflictError(Number(current.revision ?? 0));
}

/**
 * Replaces a draft's definition in one conditional UpdateItem: the draft must exist, still be a
 * draft of a survey not archived, and be at the revision the client read (If-Match).
 */
export async function replaceVersion(
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
        Key: keys.surveyVersion(workspace, surveyId, versionId),
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
    if (isConditionFailure(error)) throw versionConditionFailure(error.Item && unmarshall(error.Item), content.definition.languages);
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
          Key: keys.surveyVersion(workspace, surveyId, versionId),
          ConditionExpression: 'attribute_exists(pk) AND #status = :draft AND attribute_not_exists(surveyArchived)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':draft': 'draft' },
        },
      },
      survey: {
        Update: {
          TableName: tableName,
          Key: keys.survey(workspace, surveyId),
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
    if (error.failed('version')) throw versionConditionFailure(error.current('version') ?? undefined);
    throw error.current('survey') ? surveyArchived() : surveyNotFound();
  }
}
