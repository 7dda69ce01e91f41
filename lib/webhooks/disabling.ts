/**
 * Disabling a webhook, the one path for both ways it happens: a client's POST /webhooks/{id}/disable
 * and a receiver's 410 Gone (the delivery function). Either way the webhook is disabled first and
 * then its deliveries waiting for a retry are cancelled (deliveries.ts: cancelWaitingRetries), so a
 * retry claimed from then on finds the webhook disabled and cancels itself: nothing waiting is left
 * to read `retrying` until its time, whichever way the webhook was stopped.
 *
 * Rotation and a URL change also leave a webhook disabled, but as a pause until it is enabled again
 * (with the new secret, or once the new receiver is verified): their waiting retries are kept and
 * go out if the webhook is enabled before their time, so they do not come through here.
 */
import { NotFoundError } from '../platform/errors.ts';
import type { Webhook } from './record.ts';
import { cancelWaitingRetries } from './store/deliveries.ts';
import { disableWebhook } from './store/webhooks.ts';

export type DisableCause = { by: 'request' } | { by: 'receiver-gone'; url: string };

/** What a cancelled delivery says (`error`), by cause. */
const CANCELLED_BECAUSE: Record<DisableCause['by'], string> = {
  request: 'the webhook was disabled',
  'receiver-gone': 'the webhook was disabled: its receiver answered 410 Gone',
};

/**
 * Disables the webhook and cancels its waiting retries. For a 410, only while the webhook still has
 * the URL that answered it: null (nothing disabled, nothing cancelled) when the URL changed or the
 * webhook is gone. A request for a webhook that does not exist is a 404.
 * Round trips: the UpdateItem, then one Query and one transaction (a second only if an attempt
 * claimed a retry in between).
 */
export async function disableAndCancelRetries(workspace: string, id: string, cause: { by: 'request' }): Promise<Webhook>;
export async function disableAndCancelRetries(workspace: string, id: string, cause: DisableCause): Promise<Webhook | null>;
export async function disableAndCancelRetries(workspace: string, id: string, cause: DisableCause): Promise<Webhook | null> {
  let webhook: Webhook | null;
  try {
    webhook = await disableWebhook(workspace, id, cause.by === 'receiver-gone' ? cause.url : undefined);
  } catch (error) {
    if (cause.by === 'receiver-gone' && error instanceof NotFoundError) return null;
    throw error;
  }
  if (webhook) await cancelWaitingRetries(workspace, id, CANCELLED_BECAUSE[cause.by]);
  return webhook;
}
