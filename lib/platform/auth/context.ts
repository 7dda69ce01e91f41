import type { Workspace } from '../data/workspace-record.ts';
import type { Permission } from '../permissions.ts';

/** Who is calling: set by the authorize middleware, read by every handler. */
export interface AuthContext {
  workspace: Workspace;
  key: {
    id: string;
    name: string;
    permissions: readonly Permission[];
  };
}

export function holds(auth: AuthContext, permission: Permission): boolean {
  return auth.key.permissions.includes(permission);
}
