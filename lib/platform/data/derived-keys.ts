/**
 * The key check's read of a derived key (derived-key-record.ts) with its parent Developer key and
 * the workspace, in the one round trip authentication takes.
 */
import { type DerivedKey, derivedKeyKeys, toDerivedKey } from './derived-key-record.ts';
import { type DeveloperKey, toDeveloperKey } from './developer-key-record.ts';
import { type AuthenticationBeside, type AuthenticationRead, readForAuthentication, type StoredKey } from './developer-keys.ts';
import { keys } from './keys.ts';
import { countedWindowsOf } from './window-counter.ts';

/**
 * The derived key as the key check judges it: its parent's record (so the parent's revocation,
 * expiry and rate limit apply unchanged, and the request counts against the parent's budget), with
 * the hash of the access token's forwarded form as its secret, the earlier of the two expiries and
 * revocations, and only the granted permissions the parent still holds.
 */
function asStoredKey(parent: DeveloperKey, windows: StoredKey['windows'], derived: DerivedKey): StoredKey {
  const earlier = (a: string | null, b: string | null) => (a === null ? b : b === null ? a : a < b ? a : b);
  return {
    windows,
    key: {
      ...parent,
      name: `${parent.name} → ${derived.clientName}`,
      permissions: derived.permissions.filter((permission) => parent.permissions.includes(permission)),
      secretHash: derived.accessHash,
      expiresAt: earlier(parent.expiresAt, derived.accessExpiresAt),
      revokedAt: earlier(parent.revokedAt, derived.revokedAt),
    },
  };
}

/**
 * The workspace (one of its copies), the parent key and the derived key, in authentication's one
 * read (readForAuthentication): the same one round trip as a Developer key's, one item more
 * (docs/latency.md). Null `key` when either key is missing.
 */
export async function findWorkspaceAndDerivedKey(
  workspace: string,
  credential: { parentKeyId: string; derivedKeyId: string },
  beside: AuthenticationBeside,
): Promise<AuthenticationRead & { key: StoredKey | null }> {
  const { keyItems, ...read } = await readForAuthentication(
    workspace,
    [keys.developerKey(workspace, credential.parentKeyId), derivedKeyKeys.item(workspace, credential.parentKeyId, credential.derivedKeyId)],
    beside,
  );
  const [parentItem, derivedItem] = keyItems;
  const key =
    parentItem && derivedItem ? asStoredKey(toDeveloperKey(parentItem), countedWindowsOf(parentItem), toDerivedKey(derivedItem)) : null;
  return { ...read, key };
}
