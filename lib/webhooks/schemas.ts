/**
 * The Webhooks area's schemas that more than its routes read: a delivery as the API shows it, which
 * the delivery store's records are typed by (store/deliveries.ts), so the two cannot drift; a
 * recovery's progress.
 */
import * as z from 'zod/mini';
import { named, timestamp, uuid } from '../platform/schemas.ts';
import { DELIVERY_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from './events.ts';

export const eventType = z.enum(WEBHOOK_EVENT_TYPES);

/** What a delivery can be of: a subscribed kind, or the test event (`POST /webhooks/{id}/test`). */
const deliveryEventType = z.enum(DELIVERY_EVENT_TYPES);

export const deliveryAttempt = named(
  'WebhookDeliveryAttempt',
  z.object({
    attempt: z.int(),
    at: timestamp,
    outcome: z.enum(['delivered', 'failed']),
    responseStatus: z.nullable(z.int()),
    durationMs: z.int(),
    error: z.nullable(z.string()),
  }),
);

/**
 * Every state of a delivery. `held`: the webhook was disabled, so no attempt was made (a recovery
 * sends it); `throttled`: over the webhook's `maxDeliveriesPerSecond`, waiting for the budget (never a
 * failure, no attempt counted).
 */
const DELIVERY_OUTCOMES = ['pending', 'throttled', 'retrying', 'delivered', 'failed', 'cancelled', 'held'] as const;
export const deliveryOutcome = z.enum(DELIVERY_OUTCOMES);

export const delivery = named(
  'WebhookDelivery',
  z.object({
    id: z
      .string()
      .register(z.globalRegistry, { description: 'The delivery id: its event id, as there is one delivery per webhook and event' }),
    eventId: z.string().register(z.globalRegistry, { description: 'Sent as the `webhook-id` header on every attempt' }),
    eventType: deliveryEventType,
    outcome: deliveryOutcome,
    attempt: z.int().register(z.globalRegistry, { description: 'Attempts made so far' }),
    responseStatus: z.nullable(z.int()),
    durationMs: z.nullable(z.int()),
    error: z.nullable(z.string()),
    createdAt: timestamp,
    lastAttemptAt: z.nullable(timestamp),
    nextAttemptAt: z.nullable(timestamp),
    recoveryId: z.nullable(uuid).register(z.globalRegistry, {
      description: 'The recovery (`POST /webhooks/{id}/recover`) that took this delivery up last, if any',
    }),
    attempts: z.array(deliveryAttempt),
  }),
);

const RECOVERY_STATUSES = ['queued', 'running', 'done', 'stopped'] as const;

export const recovery = named(
  'WebhookRecovery',
  z.object({
    id: uuid,
    webhookId: uuid,
    since: timestamp,
    until: timestamp,
    status: z.enum(RECOVERY_STATUSES).register(z.globalRegistry, {
      description:
        '`queued`, then `running`; `done` once every held, failed or cancelled delivery of the window was sent; `stopped` when the ' +
        'webhook was disabled or deleted meanwhile, or 10 attempts in a row failed (`stoppedReason`): what it had not sent yet is as it was',
    }),
    queued: z.int().register(z.globalRegistry, {
      description: 'Deliveries of the window taken up to be sent so far (each counted once, even across a crash)',
    }),
    delivered: z.int().register(z.globalRegistry, { description: 'Of those, answered 2xx by the receiver' }),
    failed: z.int().register(z.globalRegistry, { description: 'Of those, whose attempt failed: they read `failed` again' }),
    stoppedReason: z.nullable(z.string()),
    createdAt: timestamp,
    updatedAt: timestamp,
    finishedAt: z.nullable(timestamp),
  }),
);
export type Recovery = z.output<typeof recovery>;
