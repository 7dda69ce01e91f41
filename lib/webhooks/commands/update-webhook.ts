/** PATCH /webhooks/{id}: change name, URL or events (the URL through the SSRF guard); a new URL disables the webhook. */
import type { AuthContext } from '../../platform/auth/context.ts';
import { assertMaySubscribe } from '../events.ts';
import { checkReceiverUrl } from '../receivers.ts';
import type { Webhook } from '../record.ts';
import { updateWebhook as update, type WebhookChanges } from '../store.ts';

export async function updateWebhook(workspace: string, id: string, changes: WebhookChanges, caller: AuthContext): Promise<Webhook> {
  assertMaySubscribe(caller, changes.events);
  if (changes.url !== undefined) await checkReceiverUrl(changes.url);
  return update(workspace, id, changes);
}
