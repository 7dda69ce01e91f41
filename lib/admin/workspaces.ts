/** Operator actions on workspaces: create, list, suspend/resume, modules, idea labels. */
import { GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/data/conditions.ts';
import { keys } from '../platform/data/keys.ts';
import { toWorkspace, type Workspace } from '../platform/data/workspace-record.ts';
import { SHARED_EDGE_LABEL, SLUG_PATTERN, workspaceHostOf } from '../platform/http/workspace-host.ts';
import { isModuleName, type ModuleName } from '../platform/permissions.ts';
import { AdminError, type Store } from './store.ts';

const LABEL_PATTERN = /^[^\s,](?:[^,]{0,98}[^\s,])?$/;

export async function createWorkspace(store: Store, slug: string, name = slug): Promise<Workspace & { host: string }> {
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
  };
  try {
    await store.db.send(new PutCommand({ TableName: store.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (isConditionFailure(error)) throw new AdminError(`Workspace "${slug}" already exists`);
    throw error;
  }
  return { ...toWorkspace(item), host: workspaceHostOf(slug) };
}

export async function findWorkspace(store: Store, slug: string): Promise<Workspace | null> {
  const { Item } = await store.db.send(new GetCommand({ TableName: store.table, Key: keys.workspace(slug), ConsistentRead: true }));
  return Item ? toWorkspace(Item) : null;
}

/**
 * Every workspace, by slug. An operator's command, never an API route: no index lists workspaces
 * (each lives in its own partition), so it scans the table, reading every item to keep the few
 * workspace items. Fine for an operator on demand; the README states the cost.
 */
export async function listWorkspaces(store: Store): Promise<Workspace[]> {
  const workspaces: Workspace[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await store.db.send(
      new ScanCommand({
        TableName: store.table,
        FilterExpression: 'sk = :sk',
        ExpressionAttributeValues: { ':sk': keys.workspace('').sk },
        ExclusiveStartKey: startKey,
      }),
    );
    workspaces.push(...(page.Items ?? []).map(toWorkspace));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return workspaces.sort((a, b) => a.slug.localeCompare(b.slug));
}

/**
 * Apply an update expression to an existing workspace; a missing workspace is an error, never
 * created, and so is one being deleted (`cxctl workspace delete` ends only by removing it).
 */
async function updateWorkspace(
  store: Store,
  slug: string,
  expression: string,
  values: Record<string, unknown>,
  names?: Record<string, string>,
): Promise<Workspace> {
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.workspace(slug),
        UpdateExpression: expression,
        ConditionExpression: 'attribute_exists(pk) AND #current <> :deleting',
        ExpressionAttributeNames: { ...names, '#current': 'status' },
        ExpressionAttributeValues: { ...values, ':now': new Date().toISOString(), ':deleting': 'deleting' },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return toWorkspace(Attributes!);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    if (error.Item)
      throw new AdminError(`Workspace "${slug}" is being deleted: finish with cxctl workspace delete ${slug} --confirm ${slug}`);
    throw new AdminError(`Workspace "${slug}" does not exist`);
  }
}

export function setWorkspaceStatus(store: Store, slug: string, status: Workspace['status']): Promise<Workspace> {
  return updateWorkspace(store, slug, 'SET #status = :status, updatedAt = :now', { ':status': status }, { '#status': 'status' });
}

export function parseModules(list: string): ModuleName[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !isModuleName(n));
  if (unknown.length > 0 || names.length === 0) {
    throw new AdminError(
      `Unknown module(s): ${unknown.join(', ') || '(none given)'}; known: ideas, journeys, surveys, sops, webhooks, knowledge-bank`,
    );
  }
  return names as ModuleName[];
}

/** Disable or enable modules atomically: a string set changed with ADD/DELETE, no read first. */
export function changeModules(store: Store, slug: string, change: { disable?: ModuleName[]; enable?: ModuleName[] }): Promise<Workspace> {
  const disable = change.disable ?? [];
  const enable = change.enable ?? [];
  const both = disable.filter((m) => enable.includes(m));
  if (both.length > 0) throw new AdminError(`Cannot both enable and disable ${both.join(', ')}`);
  const parts = ['SET updatedAt = :now'];
  const values: Record<string, unknown> = {};
  if (disable.length > 0) {
    parts.push('ADD disabledModules :disable');
    values[':disable'] = new Set(disable);
  }
  if (enable.length > 0) {
    parts.push('DELETE disabledModules :enable');
    values[':enable'] = new Set(enable);
  }
  return updateWorkspace(store, slug, parts.join(' '), values);
}

export function parseLabels(list: string | undefined, what: string): string[] | undefined {
  if (list === undefined) return undefined;
  const labels = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const label of labels) {
    if (!LABEL_PATTERN.test(label)) throw new AdminError(`Invalid ${what} "${label}": 1-100 characters, no commas`);
  }
  if (new Set(labels).size !== labels.length) throw new AdminError(`Duplicate ${what} in "${list}"`);
  return labels;
}

/** Replace the workspace's configured idea statuses and/or modules (the idea labels). */
export function setIdeaLabels(store: Store, slug: string, labels: { statuses?: string[]; modules?: string[] }): Promise<Workspace> {
  const sets = ['updatedAt = :now'];
  const values: Record<string, unknown> = {};
  if (labels.statuses) {
    sets.push('ideaLabels.statuses = :statuses');
    values[':statuses'] = labels.statuses;
  }
  if (labels.modules) {
    sets.push('ideaLabels.modules = :modules');
    values[':modules'] = labels.modules;
  }
  return updateWorkspace(store, slug, `SET ${sets.join(', ')}`, values);
}
