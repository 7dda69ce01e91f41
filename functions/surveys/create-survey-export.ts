/**
 * POST /surveys/{id}/exports: the export record (the survey checked in the same transaction), then
 * the job on the export queue. If queuing fails the request fails (502) and the record stays
 * `queued` until it expires; a retry with the same Idempotency-Key returns that record, so a client
 * retrying without one gets a new export.
 */
import { config } from '../../lib/platform/config.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { API_PREFIX, type ApiRequest, type ApiResult } from '../../lib/platform/route.ts';
import { queueExport } from '../../lib/surveys/exports/queue.ts';
import { type StoredExport, toSurveyExport } from '../../lib/surveys/exports/record.ts';
import { createSurveyExport as route } from '../../lib/surveys/exports/routes.ts';
import { createExport } from '../../lib/surveys/exports/store.ts';

const queueUrl = config.surveyExportQueueUrl();

export async function createSurveyExport({ params, body, auth, idempotency }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const workspace = auth.workspace.slug;
  const { record, replayed } = await createExport(workspace, params.id, body, idempotency);
  if (!replayed) await queueExport(queueUrl, { workspace, surveyId: params.id, exportId: record.id });
  return answer(params.id, record, replayed);
}

function answer(surveyId: string, record: StoredExport, replayed: boolean): ApiResult<typeof route> {
  return {
    body: { ok: true, export: toSurveyExport(record, null) },
    headers: { Location: `${API_PREFIX}/surveys/${surveyId}/exports/${record.id}`, ...replayHeaders(replayed) },
  };
}

// A retry under the same Idempotency-Key gets the export as first recorded; its status is read at its Location.
export const handler = apiHandler(route).handler(createSurveyExport, {
  replay: (record, { params }) => answer(params.id, record as StoredExport, false),
});
