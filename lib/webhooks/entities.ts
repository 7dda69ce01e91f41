/**
 * The items of webhooks (lib/platform/data/entity.ts), under the workspace's partition: a webhook
 * (holding its signing secret), the workspace's counter of them, and one delivery record per
 * (webhook, event).
 */
import { defineEntity } from '../platform/data/entity.ts';
import { shardOf, workspacePk } from '../platform/data/keys.ts';

const webhookKey = (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `WEBHOOK#${id}` });

/** Attributes a read for the API fetches: everything but the secret, which never leaves the table for a read. */
export const PUBLIC_WEBHOOK_ATTRIBUTES = ['id', 'name', 'url', 'secretPrefix', 'events', 'enabled', 'createdAt', 'updatedAt'] as const;

export const webhookEntity = defineEntity({
  name: 'Webhook',
  keys: {
    webhook: webhookKey,
    /** Every webhook of a workspace; the counter's sort key must not start with it. */
    prefix: 'WEBHOOK#',
  },
  publicAttributes: PUBLIC_WEBHOOK_ATTRIBUTES,
});

/**
 * One per workspace, changed in the same transaction as every create and delete, so the
 * 50-per-workspace limit holds under concurrency.
 */
export const webhookCounterEntity = defineEntity({
  name: 'WebhookCounter',
  keys: { counter: (workspace: string) => ({ pk: workspacePk(workspace), sk: 'WEBHOOKCOUNT' }) },
});

/**
 * Ranges a webhook's deliveries are spread over. A delivery takes 3 write units (its record, the
 * attempt's claim, the outcome), so one range holds 333 events a second; four hold 1,333, above the
 * 500 idea events a second idea creates can make (`npm run bench:capacity`).
 */
export const DELIVERY_SHARDS = 4;

/** A delivery's range: `WHDELIVERY#<webhookId>#<shard>#`, each sorted by event id (time-ordered). */
const deliveryRange = (webhookId: string, shard: number) => `WHDELIVERY#${webhookId}#${shard}#`;
const deliveryKey = (workspace: string, webhookId: string, eventId: string) => ({
  pk: workspacePk(workspace),
  sk: `${deliveryRange(webhookId, shardOf(eventId, DELIVERY_SHARDS))}${eventId}`,
});

/**
 * One delivery per (webhook, event), kept 30 days. Event ids sort by time, so one range per webhook
 * would take every new delivery at its end, one partition for all of them (docs/costs.md, "Scale"):
 * they are spread over DELIVERY_SHARDS ranges by a stable hash of the event id, each sorted by event id
 * (a descending query of each is newest first; lib/webhooks/store/delivery-list.ts merges them).
 */
export const webhookDeliveryEntity = defineEntity({
  name: 'WebhookDelivery',
  keys: {
    delivery: deliveryKey,
    /** What every range of a webhook's deliveries starts with. */
    prefix: (webhookId: string) => `WHDELIVERY#${webhookId}#`,
    /** Each range a webhook's deliveries are in; `at(eventId)` is where a delivery with that event id sorts in it. */
    ranges: (webhookId: string): { prefix: string; at: (eventId: string) => string }[] =>
      Array.from({ length: DELIVERY_SHARDS }, (_, shard) => ({
        prefix: deliveryRange(webhookId, shard),
        at: (eventId: string) => `${deliveryRange(webhookId, shard)}${eventId}`,
      })),
  },
  lifetimeSeconds: 30 * 86_400,
});

export const WEBHOOK_ENTITIES = [webhookEntity, webhookCounterEntity, webhookDeliveryEntity] as const;
