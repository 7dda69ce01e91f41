/** An export (GetItem) and, once done, a fresh 15-minute download link (signed locally, no call). */
import { config } from '../../platform/config.ts';
import { exportNotFound } from '../errors.ts';
import { downloadUrlOf } from '../exports/object-writer.ts';
import { DOWNLOAD_URL_SECONDS, type SurveyExport, toSurveyExport } from '../exports/record.ts';
import { findExport } from '../exports/store/exports.ts';

const bucket = config.surveyExportBucket();

export async function getSurveyExport(workspace: string, surveyId: string, exportId: string): Promise<SurveyExport> {
  const record = await findExport(workspace, surveyId, exportId);
  if (!record) throw exportNotFound();
  const downloadUrl =
    record.state === 'done'
      ? await downloadUrlOf(bucket, record.objectKey, `survey-${record.surveyId}-${record.id}.${record.format}`, DOWNLOAD_URL_SECONDS)
      : null;
  return toSurveyExport(record, downloadUrl);
}
