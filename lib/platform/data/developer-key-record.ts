/** The Developer key item and its mapping; free of the client so operator tools can use it. */
import type { Permission } from '../permissions.ts';

export interface DeveloperKey {
  id: string;
  workspace: string;
  name: string;
  permissions: Permission[];
  secretHash: string;
  tokenHint: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  rotatedAt: string | null;
  rateLimitPerMinute: number;
  lastUsedAt: string | null;
}

export function toDeveloperKey(item: Record<string, unknown>): DeveloperKey {
  return {
    id: item.id as string,
    workspace: item.workspace as string,
    name: item.name as string,
    permissions: item.permissions as Permission[],
    secretHash: item.secretHash as string,
    tokenHint: item.tokenHint as string,
    createdAt: item.createdAt as string,
    expiresAt: (item.expiresAt as string | undefined) ?? null,
    revokedAt: (item.revokedAt as string | undefined) ?? null,
    rotatedAt: (item.rotatedAt as string | undefined) ?? null,
    rateLimitPerMinute: item.rateLimitPerMinute as number,
    lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
  };
}
