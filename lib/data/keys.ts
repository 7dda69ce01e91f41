/**
 * Every item key of the single table is built here, and nowhere else.
 * Conventions: `pk` is `WS#<slug>` for everything a workspace owns (tenant isolation by key);
 * `sk` starts with the entity's prefix; ids are opaque to DynamoDB.
 */

const workspacePk = (slug: string) => `WS#${slug}`;

export const keys = {
  workspacePk,

  // Workspace: its settings, status, modules and idea labels in one item.
  workspace: (slug: string) => ({ pk: workspacePk(slug), sk: 'WORKSPACE' }),

  // Developer keys: one item each, holding the secret's hash and the rate-limit counter.
  developerKey: (slug: string, keyId: string) => ({ pk: workspacePk(slug), sk: `KEY#${keyId}` }),
  developerKeyPrefix: 'KEY#',
  /** gsi1 lets `cxctl key revoke <id>` find a key without being told its workspace. */
  developerKeyLookup: (keyId: string) => ({ gsi1pk: `KEYID#${keyId}`, gsi1sk: 'KEY' }),

  // SOP directory (people and teams), filled by `cxctl directory import`.
  directoryPerson: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#PERSON#${id}` }),
  directoryTeam: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#TEAM#${id}` }),
  directoryPrefix: 'DIR#',
  directoryPersonPrefix: 'DIR#PERSON#',
  directoryTeamPrefix: 'DIR#TEAM#',

  // Webhooks: one item each (holding the signing secret), plus one counter item per workspace that
  // create and delete change in the same transaction, so the 50-per-workspace limit holds under
  // concurrency. The counter's sort key must not start with `WEBHOOK#`, which lists webhooks.
  webhook: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `WEBHOOK#${id}` }),
  webhookPrefix: 'WEBHOOK#',
  webhookCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'WEBHOOKCOUNT' }),
  // One delivery per (webhook, event); event ids sort by time, so a descending query is newest first.
  webhookDelivery: (slug: string, webhookId: string, eventId: string) => ({
    pk: workspacePk(slug),
    sk: `WHDELIVERY#${webhookId}#${eventId}`,
  }),
  webhookDeliveryPrefix: (webhookId: string) => `WHDELIVERY#${webhookId}#`,
} as const;
