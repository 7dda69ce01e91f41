/**
 * POST /webhooks: a new, disabled webhook and its secret (shown this once); safe to retry with an
 * Idempotency-Key. The remembered response never holds the secret (store/webhooks.ts): a replay reads the
 * webhook as it is now and answers with its current secret (a client retries because it lost the
 * first answer, and needs the secret); 404 once it was deleted.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { webhookNotFound } from '../errors.ts';
import { assertMaySubscribe } from '../events.ts';
import { checkReceiverUrl } from '../receivers.ts';
import { toWebhook, type Webhook } from '../record.ts';
import { findWebhookRecord, type NewWebhook, writeNewWebhook } from '../store/webhooks.ts';

export async function createWebhook(
  workspace: string,
  input: NewWebhook,
  idempotency: IdempotentRequest | undefined,
  caller: AuthContext,
): Promise<{ webhook: Webhook; secret: string; replayed: boolean }> {
  assertMaySubscribe(caller, input.events);
  await checkReceiverUrl(input.url);
  const created = await writeNewWebhook(workspace, input, idempotency);
  if (!created.replayed) return created;
  return { ...(await rememberedWebhook(workspace, created.webhook.id)), replayed: true };
}

/** What a replayed create answers: the webhook as it is now, with its current secret; 404 once it was deleted. */
export async function rememberedWebhook(workspace: string, id: string): Promise<{ webhook: Webhook; secret: string }> {
  const current = await findWebhookRecord(workspace, id);
  if (!current) throw webhookNotFound();
  return { webhook: toWebhook(current), secret: current.secret };
}
