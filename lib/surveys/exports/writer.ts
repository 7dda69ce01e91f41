/**
 * Writes one export: the columns from the versions in it, then the survey's responses page by page
 * (a Query of ≤ 1 MB at a time) into the object writer, so memory does not grow with the number of
 * responses, at the read pace of pace.ts (each page's consumed capacity is spent before the next).
 * Respondent identifiers are never read.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import type { SurveyDefinition } from '../engine/definition.ts';
import { findSurvey } from '../store/surveys.ts';
import { findVersion } from '../store/versions.ts';
import { columnsOf, type ExportedResponse, jsonRecordOf, RESPONSE_COLUMNS, rowOf } from './columns.ts';
import { csvLine, UTF8_BOM } from './csv.ts';
import { ObjectWriter } from './object-writer.ts';
import { ReadPace } from './pace.ts';
import type { StoredExport } from './record.ts';

const EXPORTED_ATTRIBUTES = [
  'id',
  'versionId',
  'status',
  'language',
  'createdAt',
  'finishedAt',
  'secondsToFinish',
  'ending',
  'answers',
  'path',
];

/** The versions whose questions make the columns, newest first: the one asked for, or every non-draft one. */
async function definitionsOf(record: StoredExport): Promise<SurveyDefinition[]> {
  const found = await findSurvey(record.workspace, record.surveyId);
  if (!found) return [];
  const versionIds = record.versionId
    ? [record.versionId]
    : found.versions.filter((version) => version.status !== 'draft').map((version) => version.id);
  const versions = await Promise.all(versionIds.map((id) => findVersion(record.workspace, record.surveyId, id)));
  return versions.flatMap((version) => (version ? [version.definition] : []));
}

function selected(record: StoredExport, response: ExportedResponse): boolean {
  const day = response.createdAt.slice(0, 10);
  return (
    (!record.versionId || response.versionId === record.versionId) &&
    (!record.status || response.status === record.status) &&
    (!record.from || day >= record.from) &&
    (!record.to || day <= record.to)
  );
}

async function* responsesOf(record: StoredExport): AsyncGenerator<ExportedResponse> {
  const pace = new ReadPace();
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': keys.workspacePk(record.workspace), ':prefix': keys.surveyResponsePrefix(record.surveyId) },
        ProjectionExpression: EXPORTED_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(EXPORTED_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
        ReturnConsumedCapacity: 'TOTAL',
      }),
    );
    await pace.spent(page.ConsumedCapacity?.CapacityUnits ?? 0);
    for (const item of page.Items ?? []) {
      const response = { ...item, answers: item.answers ?? {}, path: item.path ?? [] } as ExportedResponse;
      if (selected(record, response)) yield response;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

export async function writeExportFile(record: StoredExport, bucket: string): Promise<{ rows: number; bytes: number }> {
  const columns = columnsOf(await definitionsOf(record));
  const csv = record.format === 'csv';
  const writer = new ObjectWriter(bucket, record.objectKey, csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  let rows = 0;
  try {
    if (csv) await writer.write(UTF8_BOM + csvLine([...RESPONSE_COLUMNS, ...columns.map((column) => column.header)]));
    for await (const response of responsesOf(record)) {
      await writer.write(
        csv ? csvLine(rowOf(response, columns, record.labels)) : `${JSON.stringify(jsonRecordOf(response, columns, record.labels))}\n`,
      );
      rows += 1;
    }
    await writer.close();
  } catch (error) {
    await writer.abort().catch(() => undefined);
    throw error;
  }
  return { rows, bytes: writer.bytes };
}
