/**
 * The keys every area builds on (the workspace's partition, the shard of a stable hash) and the
 * platform's own item keys; an area's keys are declared with its entities (lib/<area>/entities.ts).
 * Conventions: `pk` is `WS#<slug>` for everything a workspace owns (tenant isolation by key);
 * `sk` starts with the entity's prefix; ids are opaque to DynamoDB.
 */
import { createHash } from 'node:crypto';

/** The partition of everything a workspace owns: no Query can cross tenants. */
export const workspacePk = (slug: string) => `WS#${slug}`;
const TABLE_MIGRATIONS_PK = 'TABLE#MIGRATIONS';

/** Hex digits of SHA-256: a stable, uniformly spread hash (the same on every instance and in every version). */
export function stableHash(value: string, digits: number): string {
  return createHash('sha256').update(value).digest('hex').slice(0, digits);
}

/** Which of `shards` ranges a value (an id) belongs to, by its stable hash: machine-written keys spread evenly. */
export const shardOf = (value: string, shards: number) => Number.parseInt(stableHash(value, 8), 16) % shards;

export const keys = {
  workspacePk,

  // Workspace: its settings, status, modules and idea labels in one item.
  workspace: (slug: string) => ({ pk: workspacePk(slug), sk: 'WORKSPACE' }),
  /**
   * Whole copies of the workspace item (WORKSPACE_COPIES of them, workspace-record.ts), written in
   * the same transaction as the item itself, so every copy always says what it says. Authentication
   * reads one copy chosen at random, so a workspace's requests spread their strongly consistent
   * reads over that many items (3,000 read units a second each) instead of all landing on one.
   */
  workspaceCopy: (slug: string, copy: number) => ({ pk: workspacePk(slug), sk: `WORKSPACE#COPY#${copy}` }),

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
  /**
   * OAuth client registrations (RFC 7591, open to anyone) from one source address in one rate-limit
   * window, across every workspace, so no source can fill the table with clients. Gone by TTL.
   */
  oauthRegistrations: (source: string, window: number) => ({ pk: `OAUTHREG#${source}`, sk: `WINDOW#${window}` }),
  /**
   * What a layout migration (lib/admin/migrations/) has done to this table: one item per migration,
   * outside every workspace's partition (it is the table's, not a tenant's).
   */
  tableMigration: (migrationId: string) => ({ pk: TABLE_MIGRATIONS_PK, sk: migrationId }),
  tableMigrationsPk: TABLE_MIGRATIONS_PK,
  /**
   * Where a long operator command (lib/admin/jobs.ts: `cxctl rebuild …`) got to, so a run that was
   * interrupted goes on from there. Table-level, like AUTHFAIL: no workspace's.
   */
  operatorJob: (job: string) => ({ pk: 'TABLE#OPERATOR', sk: `JOB#${job}` }),
  /** The mark `cxctl backup restore` leaves in a table it made (lib/admin/restore-target.ts): the table's, no workspace's. */
  restoreMark: () => ({ pk: 'TABLE#OPERATOR', sk: 'RESTORE' }),

  // Idempotency records (lib/platform/data/idempotency.ts): the remembered response of a creating
  // POST under its Idempotency-Key, per operation (`scope`, e.g. `POST /ideas`); TTL 24 h.
  idempotency: (slug: string, scope: string, idempotencyKey: string) => ({
    pk: workspacePk(slug),
    sk: `IDEMPOTENCY#${scope}#${idempotencyKey}`,
  }),
} as const;
