/** The webhook item and its public mapping; free of the client so tests and tools can use it. */
import type { WebhookEventType } from './events.ts';

export const MAX_WEBHOOKS_PER_WORKSPACE = 50;

/** What the table holds, including the signing secret, which only delivery code may see. */
export interface WebhookRecord {
  id: string;
  workspace: string;
  name: string;
  url: string;
  events: WebhookEventType[];
  enabled: boolean;
  secret: string;
  secretPrefix: string;
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
  createdAt: string;
  updatedAt: string;
}

export function toWebhook(record: Record<string, unknown> | WebhookRecord): Webhook {
  const item = record as Record<string, unknown>;
  return {
    id: item.id as string,
    name: item.name as string,
    url: item.url as string,
    secretPrefix: item.secretPrefix as string,
    // Every webhook gets its Bearer secret when it is created, so delivery authentication is
    // always configured; the flag is kept for clients written against the spec's record.
    authenticationConfigured: typeof item.secretPrefix === 'string',
    events: item.events as WebhookEventType[],
    enabled: item.enabled === true,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export function toWebhookRecord(item: Record<string, unknown>): WebhookRecord {
  return {
    id: item.id as string,
    workspace: item.workspace as string,
    name: item.name as string,
    url: item.url as string,
    events: item.events as WebhookEventType[],
    enabled: item.enabled === true,
    secret: item.secret as string,
    secretPrefix: item.secretPrefix as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
