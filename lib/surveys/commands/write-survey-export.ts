/**
 * One export written, as its queue message asks (lib/surveys/exports/pipeline.ts). An export already
 * done or failed (a redelivered message) is left alone; a write that fails throws, so the message comes
 * back, and on its last attempt the export is marked failed first.
 */
import { config } from '../../platform/config.ts';
import { logger } from '../../platform/logger.ts';
import { countersOfWork } from '../../platform/tenants/usage.ts';
import { recordUsage } from '../../platform/tenants/usage-buffer.ts';
import type { ExportJob } from '../exports/queue.ts';
import { claimExport, settleExport } from '../exports/store/exports.ts';
import { writeExportFile } from '../exports/store/writer.ts';

const bucket = config.surveyExportBucket();

export async function writeSurveyExport({ workspace, surveyId, exportId }: ExportJob, lastAttempt: boolean): Promise<void> {
  const claimed = await claimExport(workspace, surveyId, exportId);
  if (!claimed) return;
  try {
    const { rows, bytes } = await writeExportFile(claimed, bucket);
    await settleExport(workspace, surveyId, exportId, { state: 'done', rows, bytes });
    // The file's bytes, which its download sends out: the workspace's usage (docs/operating.md, "Tenants").
    recordUsage(workspace, Date.now(), countersOfWork({ exportBytes: bytes }));
    logger.info('Survey export written', { exportId, rows, bytes });
  } catch (error) {
    if (lastAttempt) await settleExport(workspace, surveyId, exportId, { state: 'failed' });
    throw error;
  }
}
