/**
 * POST /webhooks/{id}/recover: a recovery of the window's held, failed and cancelled deliveries,
 * started (its record, and the webhook naming it, in one transaction) and its first step queued;
 * the recovery function does the rest (commands/run-webhook-recovery.ts). Safe to retry with an
 * Idempotency-Key: a retry whose first answer never reached the client (the queueing failed, say)
 * queues the first step again while the recovery is still `queued`; a second first step is dropped
 * by the step claim.
 */
import { config } from '../../platform/config.ts';
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { recoveryInProgress, webhookDisabled, webhookNotFound } from '../errors.ts';
import { sendRecoveryMessage } from '../recovery-queue.ts';
import { resolveWindow } from '../recovery-window.ts';
import type { Recovery } from '../schemas.ts';
import { findRecovery, startRecovery } from '../store/recoveries.ts';
import { findWebhookRecord } from '../store/webhooks.ts';

const queueUrl = config.webhookRecoveryQueueUrl();

export async function recoverWebhook(
  workspace: string,
  webhookId: string,
  request: { since: string; until?: string },
  idempotency: IdempotentRequest | undefined,
): Promise<{ recovery: Recovery; replayed: boolean }> {
  const window = resolveWindow(request);
  const webhook = await findWebhookRecord(workspace, webhookId);
  if (!webhook) throw webhookNotFound();
  if (!webhook.enabled) throw webhookDisabled('recovering its deliveries');
  if (webhook.recoveryId && (webhook.recoveryBusyUntil ?? 0) >= Date.now()) throw recoveryInProgress(webhook.recoveryId);
  const started = await startRecovery(workspace, webhook, window, idempotency);
  if (!started.replayed) await queueFirstStep(workspace, started.recovery);
  else await rememberedRecovery(workspace, started.recovery);
  return started;
}

/** A replayed recover: the recovery as first answered, its first step queued again if it never ran. */
export async function rememberedRecovery(workspace: string, remembered: Recovery): Promise<Recovery> {
  const now = await findRecovery(workspace, remembered.webhookId, remembered.id);
  if (now?.status === 'queued' && now.step === 1) await queueFirstStep(workspace, remembered);
  return remembered;
}

function queueFirstStep(workspace: string, recovery: Recovery): Promise<void> {
  return sendRecoveryMessage(queueUrl, { workspace, webhookId: recovery.webhookId, recoveryId: recovery.id, step: 1 });
}
