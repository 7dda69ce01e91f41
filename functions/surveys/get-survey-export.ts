/** GET /surveys/{id}/exports/{exportId}: the export (GetItem) and, once done, a fresh 15-minute download link (signed locally, no call). */
import { config } from '../../lib/platform/config.ts';
import { NotFoundError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { downloadUrlOf } from '../../lib/surveys/exports/object-writer.ts';
import { DOWNLOAD_URL_SECONDS, toSurveyExport } from '../../lib/surveys/exports/record.ts';
import { getSurveyExport as route } from '../../lib/surveys/exports/routes.ts';
import { findExport } from '../../lib/surveys/exports/store.ts';

const bucket = config.surveyExportBucket();

export async function getSurveyExport({ params, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const record = await findExport(auth.workspace.slug, params.id, params.exportId);
  if (!record) throw new NotFoundError('not_found', 'No such export of this survey (exports expire after 24 hours)');
  const downloadUrl =
    record.state === 'done'
      ? await downloadUrlOf(bucket, record.objectKey, `survey-${record.surveyId}-${record.id}.${record.format}`, DOWNLOAD_URL_SECONDS)
      : null;
  return { body: { ok: true, export: toSurveyExport(record, downloadUrl) } };
}

export const handler = apiHandler(route).handler(getSurveyExport);
