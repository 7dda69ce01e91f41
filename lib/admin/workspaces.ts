/**
 * Operator actions on workspaces: create, list, suspend/resume, modules, idea labels, request budget. Every write of a
 * workspace item goes through createWorkspace or changeWorkspace, which keep its copies in step.
 */
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { conflictBackoff, isTransactionConflict, transactionCancellationReasons } from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';
import { toWorkspace, WORKSPACE_COPIES, type Workspace } from '../platform/data/workspace-record.ts';
import { SHARED_EDGE_LABEL, SLUG_PATTERN, workspaceHostOf } from '../platform/http/workspace-host.ts';
import { identifierProblem, normaliseIdentifier, shownSafely } from '../platform/identifiers.ts';
import { isModuleName, type ModuleName } from '../platform/permissions.ts';
import { budgetProblem } from '../platform/tenants/budget.ts';
import { parseNameList } from './name-lists.ts';
import { AdminError, type TableClient, transactOrRefuse } from './table-client.ts';
import { scanPages } from './table-io.ts';

/** 1-100 characters, no commas (they separate labels), no space at either end or two in a row. */
const LABEL_PATTERN = /^[^\s,](?:[^,]{0,98}[^\s,])?$/;
const DOUBLE_SPACE = /\s{2}/;

export async function createWorkspace(store: TableClient, slug: string, name = slug): Promise<Workspace & { host: string }> {
  if (!SLUG_PATTERN.test(slug)) {
    throw new AdminError(`Invalid slug "${slug}": use 1-63 lower-case letters, digits and inner hyphens`);
  }
  if (slug === SHARED_EDGE_LABEL) throw new AdminError(`"${slug}" is the shared edge's host (${workspaceHostOf(slug)}), not a workspace`);
  if (name.length < 1 || name.length > 200) throw new AdminError('The workspace name must be 1-200 characters');
  const now = new Date().toISOString();
  const item = {
    ...keys.workspace(slug),
    entity: 'Workspace',
    slug,
    name,
    status: 'active',
    ideaLabels: { statuses: [], modules: [] },
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
  await transactOrRefuse(
    store,
    [{ Put: { TableName: store.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }, ...copiesOf(store, slug, item)],
    `Workspace "${slug}" already exists`,
  );
  return { ...toWorkspace(item), host: workspaceHostOf(slug) };
}

/** A Put of every copy authentication reads (keys.workspaceCopy), each the whole item. */
function copiesOf(store: TableClient, slug: string, item: Record<string, unknown>) {
  return Array.from({ length: WORKSPACE_COPIES }, (_, copy) => ({
    Put: { TableName: store.table, Item: { ...item, ...keys.workspaceCopy(slug, copy), entity: 'WorkspaceCopy' } },
  }));
}

export async function findWorkspace(store: TableClient, slug: string): Promise<Workspace | null> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.workspace(slug), ConsistentRead: true }));
  return Item ? toWorkspace(Item) : null;
}

/**
 * Every workspace, by slug. An operator's command, never an API route: no index lists workspaces
 * (each lives in its own partition), so it scans the table, reading every item to keep the few
 * workspace items. Fine for an operator on demand; the README states the cost.
 */
export async function listWorkspaces(store: TableClient): Promise<Workspace[]> {
  const workspaces: Workspace[] = [];
  const pages = scanPages(store, { FilterExpression: 'sk = :sk', ExpressionAttributeValues: { ':sk': keys.workspace('').sk } });
  for await (const items of pages) workspaces.push(...items.map(toWorkspace));
  return workspaces.sort((a, b) => a.slug.localeCompare(b.slug));
}

/**
 * Change an existing workspace (a missing one is an error, never created): the item and every copy
 * authentication reads (keys.workspaceCopy) are written whole, in one transaction, so no request
 * ever reads a copy that says anything else than the item, and a change counts from the very next
 * request, whichever copy it reads. Written on condition that the item's `revision` is still the
 * one read, so two operators' changes never undo each other (the loser reads again and reapplies).
 * A workspace made before the copies existed gets them with its first change. One being deleted
 * (`cxctl workspace delete` ends only by removing it) is refused, as a missing one is.
 */
async function changeWorkspace(
  store: TableClient,
  slug: string,
  change: (item: Record<string, unknown>) => Record<string, unknown>,
): Promise<Workspace> {
  for (let attempt = 1; ; attempt++) {
    const { Item: current } = await store.db.send(
      new GetCommand({ TableName: store.table, Key: keys.workspace(slug), ConsistentRead: true }),
    );
    if (!current) throw new AdminError(`Workspace "${slug}" does not exist`);
    if (current.status === 'deleting') {
      throw new AdminError(`Workspace "${slug}" is being deleted: finish with cxctl workspace delete ${slug} --confirm ${slug}`);
    }
    const revision = typeof current.revision === 'number' ? current.revision : 0;
    const item = { ...change({ ...current }), ...keys.workspace(slug), updatedAt: new Date().toISOString(), revision: revision + 1 };
    try {
      await store.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: store.table,
                Item: item,
                ConditionExpression: revision === 0 ? 'attribute_exists(pk) AND attribute_not_exists(revision)' : 'revision = :revision',
                ExpressionAttributeValues: revision === 0 ? undefined : { ':revision': revision },
              },
            },
            ...copiesOf(store, slug, item),
          ],
        }),
      );
      return toWorkspace(item);
    } catch (error) {
      const lostRace = transactionCancellationReasons(error)?.[0] === 'ConditionalCheckFailed' || isTransactionConflict(error);
      if (!lostRace || attempt >= 10) throw error;
    }
    await conflictBackoff(attempt);
  }
}

/**
 * Write the copies of a workspace made before they existed, from its item as it stands (the
 * migration of layout 1: idempotent, one workspace at a time). Until then, authentication reads
 * the item itself after its copy was not found, one round trip more.
 */
export function writeWorkspaceCopies(store: TableClient, slug: string): Promise<Workspace> {
  return changeWorkspace(store, slug, (item) => item);
}

export function setWorkspaceStatus(store: TableClient, slug: string, status: Workspace['status']): Promise<Workspace> {
  return changeWorkspace(store, slug, (item) => ({ ...item, status }));
}

export function parseModules(list: string): ModuleName[] {
  const { names, unknown } = parseNameList(list, isModuleName);
  if (unknown.length > 0 || names.length === 0) {
    throw new AdminError(
      `Unknown module(s): ${unknown.join(', ') || '(none given)'}; known: ideas, journeys, surveys, sops, webhooks, knowledge-bank`,
    );
  }
  return names as ModuleName[];
}

/** Disable or enable modules, in one change of the workspace (changeWorkspace). */
export function changeModules(
  store: TableClient,
  slug: string,
  change: { disable?: ModuleName[]; enable?: ModuleName[] },
): Promise<Workspace> {
  const disable = change.disable ?? [];
  const enable = change.enable ?? [];
  const both = disable.filter((m) => enable.includes(m));
  if (both.length > 0) throw new AdminError(`Cannot both enable and disable ${both.join(', ')}`);
  return changeWorkspace(store, slug, ({ disabledModules, ...item }) => {
    const disabled = new Set([...((disabledModules as Iterable<ModuleName> | undefined) ?? []), ...disable]);
    for (const module of enable) disabled.delete(module);
    // A string set, absent when empty (DynamoDB stores no empty set).
    return disabled.size > 0 ? { ...item, disabledModules: disabled } : item;
  });
}

/**
 * The labels of a comma-separated list, as identifiers (lib/platform/identifiers.ts): each NFKC-normalised,
 * refused when it holds an invisible or bidi-control character or a word mixing scripts, and refused
 * when two are the same once normalised (`new` and a fullwidth `ｎｅｗ`).
 */
export function parseLabels(list: string | undefined, what: string): string[] | undefined {
  if (list === undefined) return undefined;
  const typed = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const label of typed) {
    const problem = identifierProblem(label);
    if (problem) throw new AdminError(`Invalid ${what} "${shownSafely(label)}": it ${problem}`);
  }
  const labels = typed.map((label) => normaliseIdentifier(label).trim());
  for (const label of labels) {
    if (!LABEL_PATTERN.test(label) || DOUBLE_SPACE.test(label))
      throw new AdminError(`Invalid ${what} "${label}": 1-100 characters, no commas, one space between words`);
  }
  if (new Set(labels).size !== labels.length) throw new AdminError(`Duplicate ${what} in "${list}" (the same once normalised to NFKC)`);
  return labels;
}

/** Replace the workspace's configured idea statuses and/or modules (the idea labels). */
export function setIdeaLabels(store: TableClient, slug: string, labels: { statuses?: string[]; modules?: string[] }): Promise<Workspace> {
  return changeIdeaLabels(store, slug, (current) => ({
    statuses: labels.statuses ?? current.statuses,
    modules: labels.modules ?? current.modules,
  }));
}

/**
 * Change the idea labels from the ones the workspace has now (`next` may run more than once: each
 * retry of a lost race gives it the labels as they are then), with its copies, as every change.
 */
export function changeIdeaLabels(
  store: TableClient,
  slug: string,
  next: (current: Workspace['ideaLabels']) => Workspace['ideaLabels'],
): Promise<Workspace> {
  return changeWorkspace(store, slug, (item) => {
    const current = (item.ideaLabels as Workspace['ideaLabels'] | undefined) ?? { statuses: [], modules: [] };
    return { ...item, ideaLabels: next(current) };
  });
}

/**
 * Set the workspace's request budget across all its keys (`cxctl workspace set-limit`), or give it
 * back the plan's default (`null`), in one change of the workspace with its copies, so it counts from
 * the very next request. The burst defaults to twice the rate, as the plan's does.
 */
export function setRequestBudget(
  store: TableClient,
  slug: string,
  budget: { requestsPerSecond: number; burst?: number } | null,
): Promise<Workspace> {
  if (budget === null) return changeWorkspace(store, slug, ({ requestBudget: _dropped, ...item }) => item);
  const full = { requestsPerSecond: budget.requestsPerSecond, burst: budget.burst ?? 2 * budget.requestsPerSecond };
  const problem = budgetProblem(full);
  if (problem) throw new AdminError(`Invalid limit: ${problem}`);
  return changeWorkspace(store, slug, (item) => ({ ...item, requestBudget: full }));
}
