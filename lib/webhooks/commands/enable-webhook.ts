/** POST /webhooks/{id}/enable: verify the receiver with a signed event, then enable, provided its URL and secret did not change meanwhile. */
import { webhookNotFound } from '../errors.ts';
import { verifyReceiver } from '../receivers.ts';
import type { Webhook } from '../record.ts';
import { enableVerifiedWebhook, findWebhookRecord } from '../store/webhooks.ts';

export async function enableWebhook(workspace: string, id: string): Promise<Webhook> {
  const record = await findWebhookRecord(workspace, id);
  if (!record) throw webhookNotFound();
  await verifyReceiver(record);
  return enableVerifiedWebhook(workspace, record);
}
