/**
 * An event of the table stream becomes one delivery per webhook subscribed to its kind: queued for
 * an enabled webhook, `held` for a disabled one (for a recovery once it is enabled again; a webhook
 * never enabled holds nothing). A webhook's own lifecycle event goes to the others, never to itself.
 * Repeating it is harmless: its delivery records already exist and are kept, and duplicate queue
 * messages are dropped by the delivery attempt (commands/deliver-webhook.ts).
 */
import type { DynamoDBRecord } from 'aws-lambda';
import { config } from '../../platform/config.ts';
import { getWorkspace } from '../../platform/data/workspaces.ts';
import { sendDeliveryMessages } from '../delivery-queue.ts';
import { eventBody, eventIdOf, type WebhookEvent, type WebhookEventType } from '../events.ts';
import type { LifecycleChange } from '../lifecycle.ts';
import { recordNewDelivery } from '../store/deliveries.ts';
import { countHeld } from '../store/holds.ts';
import { listSubscriptions } from '../store/webhooks.ts';

const queueUrl = config.webhookDeliveryQueueUrl();

type Subscriptions = { id: string; events: WebhookEventType[]; enabled: boolean }[];

/** Who listens in a workspace, looked up once per batch: a batch holds many changes of the same few workspaces. */
export type SubscriptionLookups = Map<string, Promise<Subscriptions>>;

/** Who listens in a workspace (enabled, or disabled and holding): nobody when it is gone, suspended or has the webhooks module off. */
async function subscriptionsOf(workspace: string): Promise<Subscriptions> {
  const [record, subscriptions] = await Promise.all([getWorkspace(workspace), listSubscriptions(workspace)]);
  if (record?.status !== 'active' || record.disabledModules.includes('webhooks')) return [];
  return subscriptions;
}

/** The webhook an event is about, when it is a webhook's own lifecycle event: it never gets it. */
const aboutWebhook = (event: WebhookEvent) =>
  event.type === 'webhook.disabled' || event.type === 'webhook.enabled' ? event.data.webhookId : null;

/** Records the event's deliveries and queues those of enabled webhooks; how many it recorded. */
export async function queueEventDeliveries(event: WebhookEvent, lookups: SubscriptionLookups): Promise<number> {
  const { workspace } = event.data;
  let lookup = lookups.get(workspace);
  if (!lookup) {
    lookup = subscriptionsOf(workspace);
    lookups.set(workspace, lookup);
  }
  const itself = aboutWebhook(event);
  const targets = (await lookup).filter((s) => s.events.includes(event.type) && s.id !== itself);
  if (targets.length === 0) return 0;

  const payload = eventBody(event);
  await Promise.all(targets.map((target) => recordNewDelivery(workspace, target.id, event, payload, target.enabled ? 'pending' : 'held')));
  // Queued only once every delivery record exists, so no message can arrive before its record.
  await sendDeliveryMessages(
    queueUrl,
    targets.filter((target) => target.enabled).map((target) => ({ workspace, webhookId: target.id, eventId: event.id, attempt: 1 })),
  );
  return targets.length;
}

/** The event a webhook's change of `enabled` makes, with how many deliveries it holds as it is made. */
export async function lifecycleEvent(change: LifecycleChange, record: DynamoDBRecord): Promise<WebhookEvent> {
  const { webhookId, workspace, name, timestamp } = change;
  const heldDeliveries = await countHeld(workspace, webhookId);
  const id = eventIdOf(record);
  if (change.kind === 'enabled') return { id, type: 'webhook.enabled', timestamp, data: { webhookId, workspace, name, heldDeliveries } };
  const reason = change.reason ?? { code: 'manual' as const, since: timestamp, lastErrors: [] };
  return { id, type: 'webhook.disabled', timestamp, data: { webhookId, workspace, name, reason, heldDeliveries } };
}
