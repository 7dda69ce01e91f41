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
  /**
   * Failed authentications from one source address (no workspace: the caller proved none), counted
   * per rate-limit window so failed attempts brake their source, never a key's real holder.
   */
  authFailures: (source: string) => ({ pk: `AUTHFAIL#${source}`, sk: 'AUTHFAIL' }),

  // SOP directory (people and teams), filled by `cxctl directory import`.
  directoryPerson: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#PERSON#${id}` }),
  directoryTeam: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `DIR#TEAM#${id}` }),
  directoryPrefix: 'DIR#',
  directoryPersonPrefix: 'DIR#PERSON#',
  directoryTeamPrefix: 'DIR#TEAM#',

  // Idempotency records (lib/platform/data/idempotency.ts): the remembered response of a creating
  // POST under its Idempotency-Key, per operation (`scope`, e.g. `POST /ideas`); TTL 24 h.
  idempotency: (slug: string, scope: string, idempotencyKey: string) => ({
    pk: workspacePk(slug),
    sk: `IDEMPOTENCY#${scope}#${idempotencyKey}`,
  }),

  // Ideas. Ids are UUIDv7 (time-ordered), so `IDEA#<id>` sorts by creation and a descending
  // Query lists newest first. The per-workspace counter sorts just after every idea
  // ('$' > '#'), so that same descending Query returns the total first, in one round trip.
  // The range IDEA# … IDEA$COUNTER must hold nothing but ideas and the counter.
  idea: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `IDEA#${id}` }),
  ideaCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'IDEA$COUNTER' }),
  ideaListRange: { from: 'IDEA#', to: 'IDEA$COUNTER' },

  // SOPs. An SOP and its review comments form one item collection (`SOP#<id>`, then
  // `SOP#<id>#COMMENT#<createdAt>#<commentId>`), so GET /sops/{id} is one Query. The list reads gsi1
  // instead, where only SOP items appear, sorted by status first so "published only" is one range.
  // Ids are [A-Za-z0-9_-] only, all above '#', so the collection range of one id never holds another's.
  sop: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `SOP#${id}` }),
  sopComment: (slug: string, sopId: string, createdAt: string, commentId: string) => ({
    pk: workspacePk(slug),
    sk: `SOP#${sopId}#COMMENT#${createdAt}#${commentId}`,
  }),
  /** Upper bound of an SOP's item collection, for `sk BETWEEN sop.sk AND sopCollectionEnd`. */
  sopCollectionEnd: (sopId: string) => `SOP#${sopId}#~`,
  sopListing: (slug: string, status: string, id: string) => ({ gsi1pk: `WS#${slug}#SOPS`, gsi1sk: `${status}#${id}` }),
  sopListingPk: (slug: string) => `WS#${slug}#SOPS`,
  sopListingStatusPrefix: (status: string) => `${status}#`,
  /** The last serial handed out in a department (`-` = SOPs without a department). */
  sopSerialCounter: (slug: string, departmentId: string | null) => ({
    pk: workspacePk(slug),
    sk: `SOPSERIAL#${departmentId ?? '-'}`,
  }),

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

  // Journeys (lib/journeys/store.ts). A journey is `JOURNEY#<id>` and its versions follow it at
  // `JOURNEY#<id>#V#<version key>` (the version id's hex digits complemented, so newest first in
  // ascending order): one Query of the `JOURNEY#<id>` prefix reads the journey, then its versions.
  // Active journeys are also listed in gsi1 under `WS#<slug>#JOURNEYS` by id (UUIDv7: by creation);
  // the counter's `J$COUNT` sorts after every `J#<id>`, so a descending Query returns it first.
  journey: (slug: string, id: string) => ({ pk: workspacePk(slug), sk: `JOURNEY#${id}` }),
  journeyVersion: (slug: string, journeyId: string, versionKey: string) => ({
    pk: workspacePk(slug),
    sk: `JOURNEY#${journeyId}#V#${versionKey}`,
  }),
  journeyCounter: (slug: string) => ({ pk: workspacePk(slug), sk: 'JOURNEYCOUNT' }),
  journeyListing: (slug: string, id: string) => ({ gsi1pk: `WS#${slug}#JOURNEYS`, gsi1sk: `J#${id}` }),
  journeyCounterListing: (slug: string) => ({ gsi1pk: `WS#${slug}#JOURNEYS`, gsi1sk: 'J$COUNT' }),
  journeyListingPk: (slug: string) => `WS#${slug}#JOURNEYS`,
} as const;
