/**
 * The items of webhooks (lib/platform/data/entity.ts), under the workspace's partition: a webhook
 * (holding its signing secret), the workspace's counter of them, one delivery record per
 * (webhook, event), a recovery's record, and the slots of a webhook's rate budget.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { shardOf, workspacePk } from '../platform/data/keys.ts';

const webhookKey = (workspace: string, id: string) => ({ pk: workspacePk(workspace), sk: `WEBHOOK#${id}` });

/** Attributes a read for the API fetches: everything but the secret, which never leaves the table for a read. */
export const PUBLIC_WEBHOOK_ATTRIBUTES = [
  'id',
  'name',
  'url',
  'secretPrefix',
  'events',
  'enabled',
  'disabledReason',
  'maxDeliveriesPerSecond',
  'createdAt',
  'updatedAt',
] as const;

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

/** Where a held delivery is in gsi1: one range per shard of a webhook's held deliveries (store/holds.ts). */
const heldRange = (workspace: string, webhookId: string, shard: number) => `${workspacePk(workspace)}#WHHELD#${webhookId}#${shard}`;

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
    /**
     * A held delivery's gsi1 keys (set while it is held, removed when it leaves that state): its
     * webhook's held deliveries by shard (the delivery's own), each sorted by event id, so a count or a
     * page of them reads held deliveries only.
     */
    held: (workspace: string, webhookId: string, eventId: string) => ({
      gsi1pk: heldRange(workspace, webhookId, shardOf(eventId, DELIVERY_SHARDS)),
      gsi1sk: eventId,
    }),
    /** Every gsi1 range of a webhook's held deliveries. */
    heldRanges: (workspace: string, webhookId: string) =>
      Array.from({ length: DELIVERY_SHARDS }, (_, shard) => heldRange(workspace, webhookId, shard)),
  },
  lifetimeSeconds: 30 * 86_400,
});

/**
 * A recovery (`POST /webhooks/{id}/recover`), `WHRECOVERY#<webhookId>#<recoveryId>`: the job's record
 * (store/recoveries.ts), kept as long as the deliveries it sends.
 */
export const webhookRecoveryEntity = defineEntity({
  name: 'WebhookRecovery',
  keys: {
    recovery: (workspace: string, webhookId: string, recoveryId: string) => ({
      pk: workspacePk(workspace),
      sk: `WHRECOVERY#${webhookId}#${recoveryId}`,
    }),
  },
  lifetimeSeconds: 30 * 86_400,
});

/**
 * One slot of a webhook's rate budget: the deliveries that tried to start in one clock second on one
 * shard (lib/webhooks/rate-budget.ts), `WHRATE#<webhookId>#<shard>#<second>`, kept an hour.
 */
export const webhookRateSlotEntity = defineEntity({
  name: 'WebhookRateSlot',
  keys: {
    slot: (workspace: string, webhookId: string, shard: number, second: number) => ({
      pk: workspacePk(workspace),
      sk: `WHRATE#${webhookId}#${shard}#${second}`,
    }),
  },
  lifetimeSeconds: 3600,
});

export const WEBHOOK_ENTITIES = [
  webhookEntity,
  webhookCounterEntity,
  webhookDeliveryEntity,
  webhookRecoveryEntity,
  webhookRateSlotEntity,
] as const;
