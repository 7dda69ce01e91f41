/** GET /me: what the calling key may do in the workspace it selected; no read (the authorize middleware has read both). */
import type { AuthContext } from '../../platform/auth/context.ts';
import { MODULES, type ModuleName, type Permission } from '../../platform/permissions.ts';

export function getMe({ workspace, key }: AuthContext): {
  workspace: string;
  authenticated: boolean;
  permissions: Permission[];
  modules: ModuleName[];
} {
  return {
    workspace: workspace.slug,
    authenticated: true,
    permissions: [...key.permissions].sort(),
    modules: MODULES.filter((module) => !workspace.disabledModules.includes(module)).sort(),
  };
}
