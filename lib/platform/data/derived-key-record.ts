/**
 * Derived keys (docs/security.md): the one entity authentication reads beside a Developer key when
 * the MCP server forwards an OAuth access token. Declared here, in the platform, because the key
 * check (http/middleware/authorize.ts) reads it; the OAuth area writes it through its store.
 *
 * One item per consent: `WS#<slug>` / `DKEY#<parent id>#<id>`, so a workspace's partition holds it
 * (a deleted workspace takes its derived keys along) and `cxctl key list` finds a key's children in
 * one range. It holds the hash of the current access token's forwarded form and of the current
 * refresh token, the refresh tokens used before (reuse revokes the family), the granted subset of
 * the parent's permissions, and the TTL DynamoDB deletes it by once its refresh token has expired.
 *
 * The record alone, without the data kit's client: cxctl and the bench read it with their own.
 */
import type { Permission } from '../permissions.ts';
import { keys } from './keys.ts';
import { TABLE } from './table.ts';

const DERIVED_KEY_ENTITY = 'DerivedKey';
const DERIVED_KEY_PREFIX = 'DKEY#';

export const derivedKeyKeys = {
  /** The derived key `id` of Developer key `parentKeyId`. */
  item: (workspace: string, parentKeyId: string, id: string) => ({
    pk: keys.workspacePk(workspace),
    sk: `${DERIVED_KEY_PREFIX}${parentKeyId}#${id}`,
  }),
  /** Every derived key of a workspace (all parents), in one range: `cxctl key list`. */
  prefix: DERIVED_KEY_PREFIX,
};

export interface DerivedKey {
  id: string;
  parentKeyId: string;
  workspace: string;
  clientId: string;
  clientName: string;
  /** The granted subset of the parent's permissions (never more than it holds at each request either). */
  permissions: Permission[];
  /** The RFC 8707 resource it is bound to: the workspace's MCP server. */
  resource: string;
  accessHash: string;
  accessExpiresAt: string;
  refreshHash: string;
  /** Fixed at consent: a refresh never extends it. */
  refreshExpiresAt: string;
  /** Hashes of the refresh tokens rotated away: presenting one again revokes the whole family. */
  usedRefreshHashes: string[];
  createdAt: string;
  refreshedAt: string | null;
  revokedAt: string | null;
}

export function toDerivedKey(item: Record<string, unknown>): DerivedKey {
  return {
    id: item.id as string,
    parentKeyId: item.parentKeyId as string,
    workspace: item.workspace as string,
    clientId: item.clientId as string,
    clientName: item.clientName as string,
    permissions: item.permissions as Permission[],
    resource: item.resource as string,
    accessHash: item.accessHash as string,
    accessExpiresAt: item.accessExpiresAt as string,
    refreshHash: item.refreshHash as string,
    refreshExpiresAt: item.refreshExpiresAt as string,
    usedRefreshHashes: (item.usedRefreshHashes as string[] | undefined) ?? [],
    createdAt: item.createdAt as string,
    refreshedAt: (item.refreshedAt as string | undefined) ?? null,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
  };
}

/** The item of a derived key, with its TTL: DynamoDB removes it a day after its refresh token expires. */
export function derivedKeyItem(derived: DerivedKey): Record<string, unknown> {
  // Absent, not null, while unset: a revocation's condition asks whether `revokedAt` exists.
  const set = Object.fromEntries(Object.entries(derived).filter(([, value]) => value !== null));
  return {
    ...derivedKeyKeys.item(derived.workspace, derived.parentKeyId, derived.id),
    entity: DERIVED_KEY_ENTITY,
    ...set,
    [TABLE.ttlAttribute]: Math.floor(Date.parse(derived.refreshExpiresAt) / 1000) + 86_400,
  };
}
