/**
 * An export: the record (the survey checked in the same transaction), then the job on the export
 * queue. If queuing fails the request fails (502) and the record stays `queued` until it expires; a
 * retry with the same Idempotency-Key returns that record, so a client retrying without one gets a new export.
 */
import { config } from '../../platform/config.ts';
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { queueExport } from '../exports/queue.ts';
import { type ExportRequest, type StoredExport, type SurveyExport, toSurveyExport } from '../exports/record.ts';
import { createExport } from '../exports/store/exports.ts';

const queueUrl = config.surveyExportQueueUrl();

export async function createSurveyExport(
  workspace: string,
  surveyId: string,
  request: ExportRequest,
  idempotency: IdempotentRequest | undefined,
): Promise<{ export: SurveyExport; replayed: boolean }> {
  const { record, replayed } = await createExport(workspace, surveyId, request, idempotency);
  if (!replayed) await queueExport(queueUrl, { workspace, surveyId, exportId: record.id });
  return { export: rememberedExport(record), replayed };
}

/** The export as first recorded (what a retry under the same Idempotency-Key gets; its status is read at its Location). */
export const rememberedExport = (record: unknown): SurveyExport => toSurveyExport(record as StoredExport, null);
