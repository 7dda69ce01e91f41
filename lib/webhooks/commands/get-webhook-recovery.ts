/** GET /webhooks/{id}/recoveries/{recoveryId}: a recovery's status and counts; 404 when this webhook has no such recovery. */
import { recoveryNotFound } from '../errors.ts';
import type { Recovery } from '../schemas.ts';
import { findRecovery, toRecovery } from '../store/recoveries.ts';

export async function getWebhookRecovery(workspace: string, webhookId: string, recoveryId: string): Promise<Recovery> {
  const recovery = await findRecovery(workspace, webhookId, recoveryId);
  if (!recovery) throw recoveryNotFound();
  return toRecovery(recovery as unknown as Record<string, unknown>);
}
