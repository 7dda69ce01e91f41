/**
 * Webhook secrets and the Standard Webhooks signature (https://www.standardwebhooks.com), so
 * receivers can verify deliveries with any Standard Webhooks library. Signing needs only
 * node:crypto; the `standardwebhooks` package is used by the tests to prove compatibility.
 */
import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** `whsec_` + base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** The part of the secret shown in reads, so its owner can tell which secret is current. */
export function secretPrefixOf(secret: string): string {
  return secret.slice(0, 10);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the base64-decoded part of the secret. */
export function signature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * Every header of one delivery attempt: the spec's Bearer authentication and the Standard
 * Webhooks trio. `webhook-id` is the event id, the same on every attempt, so receivers can
 * drop duplicates; the timestamp is the attempt's, so the signature is fresh.
 */
export function deliveryHeaders(secret: string, eventId: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = Math.floor(now / 1000);
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'cx-portal-webhooks/1.0',
    Authorization: `Bearer ${secret}`,
    'webhook-id': eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(secret, eventId, timestamp, body),
  };
}
