/**
 * The vocabulary of authorisation: modules a workspace can switch off, and the permissions
 * (scopes) a Developer key can hold. Routes, cxctl and the key check all read these lists.
 */

export const MODULES = ['ideas', 'journeys', 'surveys', 'sops', 'webhooks', 'knowledge-bank'] as const;
export type ModuleName = (typeof MODULES)[number];

export const PERMISSIONS = [
  'ideas:read',
  'ideas:write',
  'ideas:delete',
  'journeys:read',
  'journeys:write',
  'journeys:delete',
  'surveys:read',
  'surveys:write',
  'surveys:delete',
  // Answers are personal data: `surveys:*` never reaches them (module `surveys`).
  'survey-responses:read',
  'survey-responses:write',
  'survey-responses:delete',
  'sops:read',
  'sops:write',
  'sops:delete',
  'sops:approve',
  'webhooks:read',
  'webhooks:write',
  'knowledge-bank:read',
  'knowledge-bank:write',
  'knowledge-bank:delete',
  // What the workspace used and cost (GET /usage): billing, in no key's defaults and no module.
  'usage:read',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Permissions of no module: the workspace's own usage and cost, which a module switched off does not hide. */
const WORKSPACE_PERMISSIONS: readonly Permission[] = ['usage:read'];

/**
 * Keys are read-only unless the operator asks for more (spec part 5, rule 4): every `:read` of a
 * module. Not `usage:read`: what a workspace costs is for whoever pays, given on purpose.
 */
export const DEFAULT_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter(
  (p) => p.endsWith(':read') && !WORKSPACE_PERMISSIONS.includes(p),
);

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

export function isModuleName(value: string): value is ModuleName {
  return (MODULES as readonly string[]).includes(value);
}

/**
 * Permissions whose prefix is not their module's name: answers to surveys are a permission family of
 * their own (personal data), in the `surveys` module.
 */
const MODULE_OF_PREFIX: Readonly<Record<string, ModuleName>> = { 'survey-responses': 'surveys' };

/**
 * The module a permission belongs to: its prefix (`knowledge-bank:read` → `knowledge-bank`), or the one
 * it is filed under; null for a permission of the workspace itself (`usage:read`).
 */
export function moduleOfPermission(permission: Permission): ModuleName | null {
  if (WORKSPACE_PERMISSIONS.includes(permission)) return null;
  const prefix = permission.slice(0, permission.indexOf(':'));
  const module = MODULE_OF_PREFIX[prefix] ?? prefix;
  if (!isModuleName(module)) throw new TypeError(`Permission ${permission} names no module`);
  return module;
}
