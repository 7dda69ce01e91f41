/**
 * An event of the table stream becomes one queued delivery per enabled webhook subscribed to its
 * kind. Repeating it is harmless: its delivery records already exist and are kept, and duplicate
 * queue messages are dropped by the delivery attempt (commands/deliver-webhook.ts).
 */
import { config } from '../../platform/config.ts';
import { getWorkspace } from '../../platform/data/workspaces.ts';
import { sendDeliveryMessages } from '../delivery-queue.ts';
import { eventBody, type WebhookEvent, type WebhookEventType } from '../events.ts';
import { recordNewDelivery } from '../store/deliveries.ts';
import { listEnabledSubscriptions } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

type Subscriptions = { id: string; events: WebhookEventType[] }[];

/** Who listens in a workspace, looked up once per batch: a batch holds many changes of the same few workspaces. */
export type SubscriptionLookups = Map<string, Promise<Subscriptions>>;

/** Who listens in a workspace: nobody when it is gone, suspended or has the webhooks module off. */
async function subscriptionsOf(workspace: string): Promise<Subscriptions> {
  const [record, subscriptions] = await Promise.all([getWorkspace(workspace), listEnabledSubscriptions(workspace)]);
  if (record?.status !== 'active' || record.disabledModules.includes('webhooks')) return [];
  return subscriptions;
}

/** Records and queues the event's deliveries; how many. */
export async function queueEventDeliveries(event: WebhookEvent, lookups: SubscriptionLookups): Promise<number> {
  const { workspace } = event.data;
  let lookup = lookups.get(workspace);
  if (!lookup) {
    lookup = subscriptionsOf(workspace);
    lookups.set(workspace, lookup);
  }
  const targets = (await lookup).filter((s) => s.events.includes(event.type));
  if (targets.length === 0) return 0;

  const payload = eventBody(event);
  await Promise.all(targets.map((target) => recordNewDelivery(workspace, target.id, event, payload)));
  // Queued only once every delivery record exists, so no message can arrive before its record.
  await sendDeliveryMessages(
    queueUrl,
    targets.map((target) => ({ workspace, webhookId: target.id, eventId: event.id, attempt: 1 })),
  );
  return targets.length;
}
