/** The export records: created with the survey's existence checked in the same transaction, then moved by the writer. */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../../platform/data/client.ts';
import { isConditionFailure } from '../../../platform/data/conditions.ts';
import { createOnce, type IdempotentRequest } from '../../../platform/data/idempotency.ts';
import { TransactionCancelledError } from '../../../platform/data/transact.ts';
import { update } from '../../../platform/data/update.ts';
import { surveyEntity, surveyVersionEntity } from '../../entities.ts';
import { surveyNotFound, versionNotFound } from '../../errors.ts';
import { newSurveyId } from '../../record.ts';
import { surveyExportEntity } from '../entities.ts';
import { EXPORT_ENTITY, EXPORT_LIFETIME_SECONDS, type ExportRequest, objectKeyOf, type StoredExport } from '../record.ts';

export async function createExport(
  workspace: string,
  surveyId: string,
  request: ExportRequest,
  idempotency: IdempotentRequest | undefined,
): Promise<{ record: StoredExport; replayed: boolean }> {
  const id = newSurveyId();
  const now = new Date();
  const expires = new Date(now.getTime() + EXPORT_LIFETIME_SECONDS * 1000);
  const record: StoredExport = {
    ...request,
    id,
    surveyId,
    workspace,
    state: 'queued',
    rows: 0,
    bytes: 0,
    objectKey: objectKeyOf(workspace, surveyId, id, request.format),
    createdAt: now.toISOString(),
    expiresAt: expires.toISOString(),
  };
  const exists = (key: { pk: string; sk: string }) => ({
    ConditionCheck: { TableName: tableName, Key: key, ConditionExpression: 'attribute_exists(pk)' },
  });
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        survey: exists(surveyEntity.keys.survey(workspace, surveyId)),
        version: request.versionId !== undefined && exists(surveyVersionEntity.keys.version(workspace, surveyId, request.versionId)),
        export: {
          Put: {
            TableName: tableName,
            Item: {
              ...surveyExportEntity.keys.export(workspace, surveyId, id),
              entity: EXPORT_ENTITY,
              ...record,
              ttl: Math.floor(expires.getTime() / 1000),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      record,
      idempotency,
    );
    return { record: response, replayed };
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('survey')) throw surveyNotFound();
    if (error instanceof TransactionCancelledError && error.failed('version')) throw versionNotFound();
    throw error;
  }
}

const RECORD_ATTRIBUTES = ['id', 'surveyId', 'workspace', 'format', 'versionId', 'status', 'from', 'to', 'labels'] as const;

function toStoredExport(item: Record<string, unknown>): StoredExport {
  const record = Object.fromEntries(RECORD_ATTRIBUTES.filter((name) => item[name] !== undefined).map((name) => [name, item[name]]));
  return {
    ...(record as Pick<StoredExport, (typeof RECORD_ATTRIBUTES)[number]>),
    state: item.state as StoredExport['state'],
    rows: item.rows as number,
    bytes: item.bytes as number,
    objectKey: item.objectKey as string,
    createdAt: item.createdAt as string,
    expiresAt: item.expiresAt as string,
  };
}

/** The export, or null when there is none (or it expired: TTL deletion may lag, the expiry does not). */
export async function findExport(workspace: string, surveyId: string, exportId: string): Promise<StoredExport | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: surveyExportEntity.keys.export(workspace, surveyId, exportId), ConsistentRead: true }),
  );
  if (!Item || Date.parse(Item.expiresAt as string) <= Date.now()) return null;
  return toStoredExport(Item);
}

/**
 * Marks the export running, unless it is already done or failed (a redelivered message): the record
 * to write, or null when there is nothing left to do.
 */
export async function claimExport(workspace: string, surveyId: string, exportId: string): Promise<StoredExport | null> {
  try {
    const { Attributes } = await dynamo.send(
      new UpdateCommand({
        TableName: tableName,
        Key: surveyExportEntity.keys.export(workspace, surveyId, exportId),
        ...update()
          .set('state', 'running')
          .build({
            expression: '#state IN (:queued, :running)',
            names: { '#state': 'state' },
            values: { ':queued': 'queued', ':running': 'running' },
          }),
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes ? toStoredExport(Attributes) : null;
  } catch (error) {
    if (isConditionFailure(error)) return null;
    throw error;
  }
}

export async function settleExport(
  workspace: string,
  surveyId: string,
  exportId: string,
  outcome: { state: 'done'; rows: number; bytes: number } | { state: 'failed' },
): Promise<void> {
  const settled = update().set('state', outcome.state);
  if (outcome.state === 'done') settled.set('rows', outcome.rows).set('bytes', outcome.bytes);
  await dynamo.send(
    new UpdateCommand({
      TableName: tableName,
      Key: surveyExportEntity.keys.export(workspace, surveyId, exportId),
      ...settled.build({ expression: 'attribute_exists(pk)' }),
    }),
  );
}
