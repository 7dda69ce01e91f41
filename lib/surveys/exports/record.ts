/** A survey export job as stored (one item, TTL 24 h like its file) and as the API shows it. */
import type { LabelLanguage } from './columns.ts';
import { EXPORT_LIFETIME_SECONDS } from './pipeline.ts';

export { EXPORT_LIFETIME_SECONDS };

/** How long a download link works. */
export const DOWNLOAD_URL_SECONDS = 15 * 60;

type ExportState = 'queued' | 'running' | 'done' | 'failed';

export interface ExportRequest {
  format: 'csv' | 'jsonl';
  versionId?: string;
  status?: 'partial' | 'finished';
  from?: string;
  to?: string;
  labels: LabelLanguage;
}

export interface StoredExport extends ExportRequest {
  id: string;
  surveyId: string;
  workspace: string;
  state: ExportState;
  rows: number;
  bytes: number;
  objectKey: string;
  createdAt: string;
  expiresAt: string;
}

export interface SurveyExport {
  id: string;
  status: ExportState;
  rows: number;
  bytes: number;
  downloadUrl: string | null;
  expiresAt: string;
}

/** Every export file of a workspace starts with this (cxctl workspace delete removes them). */
export const exportObjectPrefixOf = (workspace: string) => `survey-exports/${workspace}/`;

/** Where the file goes: per workspace and survey, so the grant and a lifecycle rule can name the prefix. */
export function objectKeyOf(workspace: string, surveyId: string, exportId: string, format: ExportRequest['format']): string {
  return `${exportObjectPrefixOf(workspace)}${surveyId}/${exportId}.${format}`;
}

export function toSurveyExport(record: StoredExport, downloadUrl: string | null): SurveyExport {
  return { id: record.id, status: record.state, rows: record.rows, bytes: record.bytes, downloadUrl, expiresAt: record.expiresAt };
}
