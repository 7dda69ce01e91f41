/** The workspace item and its mapping; free of the client so operator tools can use it. */
import type { ModuleName } from '../permissions.ts';
import type { RequestBudget } from '../tenants/budget.ts';

export interface Workspace {
  slug: string;
  name: string;
  /** `deleting` from the start of `cxctl workspace delete` until its workspace item, the last, is gone. */
  status: 'active' | 'suspended' | 'deleting';
  disabledModules: ModuleName[];
  /** Configured idea labels (`cxctl labels set`), read by the ideas area. */
  ideaLabels: { statuses: string[]; modules: string[] };
  /** Its request budget across all its keys (`cxctl workspace set-limit`); null: the plan's default (config). */
  requestBudget: RequestBudget | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * How many copies of the workspace item authentication reads from (keys.workspaceCopy). Each takes
 * 3,000 strongly consistent reads of up to 4 KB a second, so eight carry 24,000 requests a second of
 * one workspace (its keys' own items cap each key at 1,000: docs/using-the-api.md), while an
 * operator's change writes nine items in one transaction, well under its limit of 100.
 */
export const WORKSPACE_COPIES = 8;

export function toWorkspace(item: Record<string, unknown>): Workspace {
  return {
    slug: item.slug as string,
    name: item.name as string,
    status: item.status as Workspace['status'],
    // Stored as a string set (changed atomically by cxctl), absent when empty.
    disabledModules: [...((item.disabledModules as Iterable<ModuleName> | undefined) ?? [])].sort(),
    ideaLabels: (item.ideaLabels as Workspace['ideaLabels'] | undefined) ?? { statuses: [], modules: [] },
    requestBudget: (item.requestBudget as RequestBudget | undefined) ?? null,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}
