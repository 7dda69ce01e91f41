/**
 * PATCH /webhooks/{id}: change name, URL or events (a URL through the SSRF guard); a new URL disables
 * the webhook. The common case is one UpdateItem: the first write assumes the URL changed; if it
 * did not, the rest is written again without it, leaving `enabled` as it is.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { assertMaySubscribe } from '../events.ts';
import { checkReceiverUrl } from '../receivers.ts';
import type { Webhook } from '../record.ts';
import { type WebhookChanges, writeWebhookChanges } from '../store/webhooks.ts';

export async function updateWebhook(workspace: string, id: string, changes: WebhookChanges, caller: AuthContext): Promise<Webhook> {
  assertMaySubscribe(caller, changes.events);
  if (changes.url !== undefined) await checkReceiverUrl(changes.url);
  const written = await writeWebhookChanges(workspace, id, changes);
  if (written) return written;
  // The URL given is the one it already has: not a change.
  return (await writeWebhookChanges(workspace, id, { ...changes, url: undefined }))!;
}
