/**
 * PATCH /webhooks/{id}: change name, URL, events or the rate limit (a URL through the SSRF guard).
 * Without a URL it is one UpdateItem. A new URL disables the webhook, holding what it misses
 * (../disabling.ts); the URL it already has is no change, and the rest is written without it.
 */
import type { AuthContext } from '../../platform/auth/context.ts';
import { disableOnRequest } from '../disabling.ts';
import { assertMaySubscribe } from '../events.ts';
import { checkReceiverUrl } from '../receivers.ts';
import type { Webhook } from '../record.ts';
import { type WebhookChanges, writeWebhookChanges } from '../store/webhooks.ts';

export async function updateWebhook(workspace: string, id: string, changes: WebhookChanges, caller: AuthContext): Promise<Webhook> {
  assertMaySubscribe(caller, changes.events);
  const { url, ...rest } = changes;
  if (url !== undefined) {
    await checkReceiverUrl(url);
    const changed = await disableOnRequest(workspace, id, { code: 'url_changed', changes: { ...rest, url } });
    if (changed !== 'unchanged') return changed.webhook;
  }
  return writeWebhookChanges(workspace, id, rest);
}
