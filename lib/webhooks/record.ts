/** The webhook item and its public mapping; free of the client so tests and tools can use it. */
import type { DisabledReason } from './disabled-reason.ts';
import type { WebhookEventType } from './events.ts';
import type { FailureState } from './failure-window.ts';

export const MAX_WEBHOOKS_PER_WORKSPACE = 50;

/** What the table holds, including the signing secret, which only delivery code may see. */
export interface WebhookRecord extends FailureState {
  id: string;
  workspace: string;
  name: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  /** Null while enabled, and for a webhook never enabled (nothing is held for it). */
  disabledReason: DisabledReason | null;
  maxDeliveriesPerSecond: number | null;
  secret: string;
  secretPrefix: string;
  /** The recovery under way, and until when it counts as alive (epoch ms): one at a time per webhook. */
  recoveryId: string | null;
  recoveryBusyUntil: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The spec's Webhook record as the API returns it: never the secret (except once, on create and rotate). */
export interface Webhook {
  id: string;
  name: string;
  url: string;
  secretPrefix: string;
  authenticationConfigured: boolean;
  events: WebhookEventType[];
  enabled: boolean;
  disabledReason: DisabledReason | null;
  maxDeliveriesPerSecond: number | null;
  createdAt: string;
  updatedAt: string;
}

/** A reason as stored: a map, or NULL for a webhook never enabled (store/webhooks.ts says why), or absent. */
const reasonOf = (value: unknown): DisabledReason | null => (value && typeof value === 'object' ? (value as DisabledReason) : null);

export function toWebhook(record: Record<string, unknown> | WebhookRecord): Webhook {
  const item = record as Record<string, unknown>;
  const enabled = item.enabled === true;
  return {
    id: item.id as string,
    name: item.name as string,
    url: item.url as string,
    secretPrefix: item.secretPrefix as string,
    // Every webhook gets its Bearer secret when it is created, so delivery authentication is
    // always configured; the flag is kept for clients written against the spec's record.
    authenticationConfigured: typeof item.secretPrefix === 'string',
    events: item.events as WebhookEventType[],
    enabled,
    disabledReason: enabled ? null : reasonOf(item.disabledReason),
    maxDeliveriesPerSecond: typeof item.maxDeliveriesPerSecond === 'number' ? item.maxDeliveriesPerSecond : null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export function toWebhookRecord(item: Record<string, unknown>): WebhookRecord {
  const webhook = toWebhook(item);
  return {
    ...webhook,
    workspace: item.workspace as string,
    secret: item.secret as string,
    failingSince: (item.failingSince as string | undefined) ?? null,
    lastErrors: (item.lastErrors as FailureState['lastErrors'] | undefined) ?? [],
    lastFailureAt: (item.lastFailureAt as string | undefined) ?? null,
    recoveryId: (item.recoveryId as string | undefined) ?? null,
    recoveryBusyUntil: (item.recoveryBusyUntil as number | undefined) ?? null,
  };
}
