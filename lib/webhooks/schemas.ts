/**
 * The Webhooks area's schemas that more than its routes read: a delivery as the API shows it, which
 * the delivery store's records are typed by (store/deliveries.ts), so the two cannot drift.
 */
import * as z from 'zod/mini';
import { named, timestamp } from '../platform/schemas.ts';
import { WEBHOOK_EVENT_TYPES } from './events.ts';

export const eventType = z.enum(WEBHOOK_EVENT_TYPES);

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
export const delivery = named(
  'WebhookDelivery',
  z.object({
    id: z
      .string()
      .register(z.globalRegistry, { description: 'The delivery id: its event id, as there is one delivery per webhook and event' }),
    eventId: z.string().register(z.globalRegistry, { description: 'Sent as the `webhook-id` header on every attempt' }),
    eventType,
    outcome: z.enum(['pending', 'retrying', 'delivered', 'failed', 'cancelled']),
    attempt: z.int().register(z.globalRegistry, { description: 'Attempts made so far' }),
    responseStatus: z.nullable(z.int()),
    durationMs: z.nullable(z.int()),
    error: z.nullable(z.string()),
    createdAt: timestamp,
    lastAttemptAt: z.nullable(timestamp),
    nextAttemptAt: z.nullable(timestamp),
    attempts: z.array(deliveryAttempt),
  }),
);
