/**
 * Writes one export: the columns from the versions in it, then the survey's responses oldest first
 * into the object writer. The responses are kept in 64 ranges (responses/entities.ts): they are merged in order,
 * each range read RANGE_PAGE responses at a time, the ranges that run low refilled together, so
 * memory stays bounded (at most 65 × 1.5 pages of responses) and the reads spread over every range
 * instead of draining one range after another at DynamoDB's per-partition ceiling. The reads keep the
 * pace of pace.ts (each Query's consumed capacity is spent before the walk goes on): a survey written
 * slowly may hold all its ranges in one partition. Respondent identifiers are never read.
 */
import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../../../platform/data/client.ts';
import { keys } from '../../../platform/data/keys.ts';
import { readAll } from '../../../platform/data/sharded-ranges.ts';
import type { SurveyDefinition } from '../../engine/definition.ts';
import { responseIdOfKey, SURVEY_RESPONSE_SHARDS, surveyResponseEntity } from '../../responses/entities.ts';
import { responseLayout } from '../../responses/store/layout.ts';
import { findSurvey } from '../../store/surveys.ts';
import { findVersion } from '../../store/versions.ts';
import { columnsOf, EXPORTED_ATTRIBUTES, type ExportedResponse, headersOf, jsonRecordOf, rowOf } from '../columns.ts';
import { csvLine, UTF8_BOM } from '../csv.ts';
import { ObjectWriter } from '../object-writer.ts';
import { ReadPace } from '../pace.ts';
import type { StoredExport } from '../record.ts';

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

/** Responses read per range and Query: at most 65 ranges × 24 buffered, about 6 MB of 4 KB responses (100 MB if every one held 64 KB of answers). */
const RANGE_PAGE = 16;

function exportQuery(record: StoredExport, from: string, to: string): QueryCommandInput {
  const attributes = ['sk', ...EXPORTED_ATTRIBUTES];
  return {
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(record.workspace), ':from': from, ':to': to },
    ProjectionExpression: attributes.map((_, i) => `#a${i}`).join(', '),
    ExpressionAttributeNames: Object.fromEntries(attributes.map((name, i) => [`#a${i}`, name])),
    ConsistentRead: true,
  };
}

async function* responsesOf(record: StoredExport): AsyncGenerator<ExportedResponse> {
  await responseLayout.check();
  const ranges = Array.from({ length: SURVEY_RESPONSE_SHARDS }, (_, shard) => {
    const range = surveyResponseEntity.keys.shardRange(record.surveyId, shard);
    return exportQuery(record, range.from, range.to);
  });
  // Until migration 002 has finished, older responses may still be in their legacy range.
  if (responseLayout.pending) {
    const legacy = surveyResponseEntity.keys.legacyRange(record.surveyId);
    ranges.push(exportQuery(record, legacy.from, legacy.to));
  }
  const seen = new Set<string>();
  const pace = new ReadPace();
  const list = {
    ranges,
    orderOf: (item: Record<string, unknown>) => responseIdOfKey(item.sk as string),
    descending: false,
    consumed: (units: number) => pace.spent(units),
  };
  for await (const item of readAll(list, RANGE_PAGE)) {
    const { sk: _sk, ...fields } = item;
    const response = { ...fields, answers: item.answers ?? {}, path: item.path ?? [] } as ExportedResponse;
    // A response the migration moved while the export ran may be met in both ranges: once is enough.
    if (seen.has(response.id)) continue;
    if (responseLayout.pending) seen.add(response.id);
    if (selected(record, response)) yield response;
  }
}

export async function writeExportFile(record: StoredExport, bucket: string): Promise<{ rows: number; bytes: number }> {
  const columns = columnsOf(await definitionsOf(record));
  const csv = record.format === 'csv';
  const writer = new ObjectWriter(bucket, record.objectKey, csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  let rows = 0;
  try {
    if (csv) await writer.write(UTF8_BOM + csvLine(headersOf(columns)));
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
