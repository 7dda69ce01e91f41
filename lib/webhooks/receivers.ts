/** What the management API does with a receiver: check its URL before saving it, and verify it before enabling. */
import { randomBytes } from 'node:crypto';
import { type PostOptions, postJson } from '../platform/outbound/http-post.ts';
import { assertUrlAllowed, BlockedDestinationError, UnresolvableHostError } from '../platform/outbound/ssrf.ts';
import { webhookUrlNotAllowed, webhookUrlUnresolvable, webhookVerificationFailed } from './errors.ts';
import { VERIFICATION_EVENT_TYPE, type VerificationEventBody } from './events.ts';
import type { WebhookRecord } from './record.ts';
import { deliveryHeaders } from './signing.ts';

/** The SSRF guard at create and update time, as 400s the caller can act on. */
export async function checkReceiverUrl(url: string): Promise<void> {
  try {
    await assertUrlAllowed(new URL(url));
  } catch (error) {
    if (error instanceof BlockedDestinationError) {
      throw webhookUrlNotAllowed(error.message);
    }
    if (error instanceof UnresolvableHostError) {
      throw webhookUrlUnresolvable(error.message);
    }
    throw error;
  }
}

/**
 * Send the signed `webhook.verification` event and require a 2xx, so a webhook is only enabled
 * once its receiver is reachable and holds the current secret. Throws 400 with the reason.
 */
export async function verifyReceiver(webhook: WebhookRecord, options: PostOptions = {}): Promise<void> {
  const eventId = `evt_verification_${randomBytes(12).toString('hex')}`;
  const event: VerificationEventBody = {
    type: VERIFICATION_EVENT_TYPE,
    timestamp: new Date().toISOString(),
    data: { webhookId: webhook.id, workspace: webhook.workspace },
  };
  const body = JSON.stringify(event);
  const outcome = await postJson(webhook.url, body, deliveryHeaders(webhook.secret, eventId, body), options);
  if (!outcome.ok) {
    throw webhookVerificationFailed(outcome.error);
  }
}
