/**
 * Disabling a webhook, the one path for every way it happens: a client's `disable`, a rotation and a
 * new URL (requests), a receiver's 410 and a failure past the window (the delivery function and a
 * recovery). Whatever the way, one transaction disables it, says why (`disabledReason`, only when it
 * was enabled: a webhook never enabled holds nothing) and holds its deliveries waiting for a retry
 * (`held`, up to 99 at once: DynamoDB's 100 items a transaction, the webhook one of them); the others,
 * and deliveries still queued, are held by the delivery function when their time comes. A retry
 * claimed for an attempt in between is left to that attempt, which finds the webhook disabled.
 *
 * Each write is conditioned on what was read: the webhook's `enabled` (so the reason given is right),
 * its URL (a 410 is about the URL it was sent to), or its failure streak (a success in between
 * restarts the window): a request that lost such a race reads again and tries again; a function's
 * attempt leaves the webhook to whoever changed it.
 */

import { type DisabledReason, reasonFor } from './disabled-reason.ts';
import { webhookNotFound } from './errors.ts';
import { toWebhook, type Webhook, type WebhookRecord } from './record.ts';
import { newWebhookSecret, secretPrefixOf } from './signing.ts';
import { disableAndHold, findWaitingRetries, type HoldingWrite } from './store/holds.ts';
import { findWebhookRecord, type WebhookChanges } from './store/webhooks.ts';

/** How a request disables: its own changes besides `enabled: false`. */
export type DisablingRequest =
  | { code: 'manual' }
  | { code: 'rotated' }
  | { code: 'url_changed'; changes: WebhookChanges & { url: string } };

/** How a receiver's answers disable, from the webhook as the attempt read it. */
export type DisablingAnswer = { code: 'gone'; reason: DisabledReason } | { code: 'failing'; reason: DisabledReason; streakSince: string };

/** A request lost a race with another change this often before it gives up with the last error. */
const REQUEST_ROUNDS = 3;

/**
 * Disable on a request: read the webhook and its waiting retries at once, then one transaction.
 * Answers the webhook as written (with its new secret after a rotation), `unchanged` for a PATCH
 * whose URL is the one it has (the caller writes the rest without it), or the webhook as it is when
 * `disable` finds it disabled already (nothing to do). 404 when there is none.
 */
export async function disableOnRequest(
  workspace: string,
  id: string,
  request: DisablingRequest,
): Promise<{ webhook: Webhook; secret?: string } | 'unchanged'> {
  for (let round = 1; ; round++) {
    const [webhook, retries] = await Promise.all([findWebhookRecord(workspace, id), findWaitingRetries(workspace, id)]);
    if (!webhook) throw webhookNotFound();
    if (request.code === 'url_changed' && webhook.url === request.changes.url) return 'unchanged';
    if (request.code === 'manual' && !webhook.enabled) return { webhook: toWebhook(webhook) };
    const now = new Date().toISOString();
    const secret = request.code === 'rotated' ? newWebhookSecret() : undefined;
    const set: Record<string, unknown> = { enabled: false, updatedAt: now };
    if (webhook.enabled) set.disabledReason = reasonFor(request.code, now);
    if (secret) Object.assign(set, { secret, secretPrefix: secretPrefixOf(secret) });
    const changes = request.code === 'url_changed' ? request.changes : {};
    const write: HoldingWrite = { set, changes, condition: { enabled: webhook.enabled, url: webhook.url } };
    const written = await disableAndHold(workspace, id, write, webhook.enabled ? retries : []);
    if (written === 'written') return { webhook: toWebhook({ ...webhook, ...changes, ...set }), secret };
    if (written === 'missing') throw webhookNotFound();
    if (round === REQUEST_ROUNDS) throw new Error(`The webhook kept changing while ${request.code} was written`);
  }
}

/**
 * Disable after a receiver's answer, from the webhook as the attempt read it: true when this disabled
 * it; false when it had been disabled, deleted, given another URL (a 410 says nothing about a new
 * one) or had a success meanwhile (the failure window starts again).
 */
export async function disableWebhookFor(webhook: WebhookRecord, answer: DisablingAnswer): Promise<boolean> {
  const retries = await findWaitingRetries(webhook.workspace, webhook.id);
  const write: HoldingWrite = {
    set: { enabled: false, disabledReason: answer.reason, updatedAt: answer.reason.since },
    changes: {},
    condition: { enabled: true, ...(answer.code === 'gone' ? { url: webhook.url } : { failingSince: answer.streakSince }) },
  };
  return (await disableAndHold(webhook.workspace, webhook.id, write, retries)) === 'written';
}
