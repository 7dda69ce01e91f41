/** Operator actions on Developer keys: create, list, revoke, rotate. */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashToken, newKeyId, newToken, tokenHint } from '../platform/auth/developer-key-token.ts';
import { isConditionFailure } from '../platform/data/conditions.ts';
import { type DerivedKey, derivedKeyKeys, toDerivedKey } from '../platform/data/derived-key-record.ts';
import { type DeveloperKey, toDeveloperKey } from '../platform/data/developer-key-record.ts';
import { itemBytes } from '../platform/data/item-size.ts';
import { keys } from '../platform/data/keys.ts';
import { TABLE } from '../platform/data/table.ts';
import { DEFAULT_PERMISSIONS, isPermission, PERMISSIONS, type Permission } from '../platform/permissions.ts';
import { parseNameList } from './name-lists.ts';
import { AdminError, type TableClient, transactOrRefuse, workspaceExists } from './table-client.ts';
import { queryPages } from './table-io.ts';

/** What an operator sees of a derived key (an OAuth grant for the MCP server): never a token's hash. */
type DerivedKeySummary = Omit<DerivedKey, 'accessHash' | 'refreshHash' | 'usedRefreshHashes' | 'workspace' | 'parentKeyId'>;

/** What an operator sees of a key: never the secret or its hash; its derived keys beside it. */
export type KeySummary = Omit<DeveloperKey, 'secretHash'> & { derivedKeys?: DerivedKeySummary[] };

function summary(key: DeveloperKey): KeySummary {
  const { secretHash: _hidden, ...rest } = key;
  return rest;
}

export function parsePermissions(list: string): Permission[] {
  const { names, unknown } = parseNameList(list, isPermission);
  if (unknown.length > 0) throw new AdminError(`Unknown permission(s): ${unknown.join(', ')}; known: ${PERMISSIONS.join(', ')}`);
  if (names.length === 0) throw new AdminError('Give at least one permission');
  return [...new Set(names)] as Permission[];
}

const DURATION = /^(\d{1,6})(s|m|h|d)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86400 } as const;

/** `30s`, `15m`, `12h`, `90d` → seconds. */
export function parseDuration(text: string): number {
  const match = DURATION.exec(text);
  if (!match || Number(match[1]) === 0) throw new AdminError(`Invalid duration "${text}": use e.g. 30s, 15m, 12h or 90d`);
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/**
 * Every request writes its key's rate-limit counter once, and one item takes at most 1,000 writes a
 * second (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html):
 * a higher limit would be throttled by DynamoDB before the key reached it. The stage's own throttle
 * (1,000 requests a second by default) is the same figure. A heavier integration uses several keys.
 */
export const MAX_RATE_LIMIT_PER_MINUTE = 60_000;

/** One write unit covers an item of up to 1 KB (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html). */
const ONE_WRITE_UNIT_BYTES = 1024;

/**
 * What a key item gains after its creation: a rotation's `rotatedAt`, a request's `lastUsedAt`, and
 * its counter's entries of the current and the previous window (the longest numbers a window has).
 */
const COUNTED_KEY_ALLOWANCE = {
  rotatedAt: '2026-01-01T00:00:00.000Z',
  lastUsedAt: '2026-01-01T00:00:00.000Z',
  rlWindows: { '1000000000000': MAX_RATE_LIMIT_PER_MINUTE, '1000000000001': MAX_RATE_LIMIT_PER_MINUTE },
};

export interface CreateKeyOptions {
  workspace: string;
  name?: string;
  permissions?: Permission[];
  expiresInSeconds?: number;
  rateLimitPerMinute: number;
}

/** Create a key in an existing workspace; the returned `key` (token) is never stored or shown again. */
export async function createDeveloperKey(store: TableClient, options: CreateKeyOptions): Promise<KeySummary & { key: string }> {
  if (
    !Number.isInteger(options.rateLimitPerMinute) ||
    options.rateLimitPerMinute < 1 ||
    options.rateLimitPerMinute > MAX_RATE_LIMIT_PER_MINUTE
  ) {
    throw new AdminError(`The rate limit must be a whole number of requests per minute, 1 to ${MAX_RATE_LIMIT_PER_MINUTE}`);
  }
  const name = options.name ?? 'Developer key';
  if (name.length < 1 || name.length > 100) throw new AdminError('The key name must be 1-100 characters');
  const id = newKeyId();
  const token = newToken(id);
  const now = new Date();
  const item = {
    ...keys.developerKey(options.workspace, id),
    ...keys.developerKeyLookup(id),
    entity: 'DeveloperKey',
    id,
    workspace: options.workspace,
    name,
    permissions: options.permissions ?? [...DEFAULT_PERMISSIONS],
    secretHash: hashToken(token),
    tokenHint: tokenHint(token),
    createdAt: now.toISOString(),
    expiresAt: options.expiresInSeconds ? new Date(now.getTime() + options.expiresInSeconds * 1000).toISOString() : undefined,
    rateLimitPerMinute: options.rateLimitPerMinute,
    // The key's rate-limit counter, one entry a window (lib/platform/data/developer-keys.ts countKeyUse).
    rlWindows: {},
  };
  if (itemBytes({ ...item, ...COUNTED_KEY_ALLOWANCE }) > ONE_WRITE_UNIT_BYTES) {
    throw new AdminError(
      'The key name is too long: every request rewrites the key item, and its count must stay one write unit (1 KB) ' +
        `for the key to carry ${MAX_RATE_LIMIT_PER_MINUTE / 60} requests a second (docs/costs.md, "What one key carries"); use a shorter name`,
    );
  }
  await transactOrRefuse(
    store,
    [
      workspaceExists(store, options.workspace),
      { Put: { TableName: store.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    ],
    `Workspace "${options.workspace}" does not exist`,
  );
  return { ...summary(toDeveloperKey(item)), key: token };
}

export async function listDeveloperKeys(store: TableClient, workspace: string): Promise<KeySummary[]> {
  const found: KeySummary[] = [];
  const range = (prefix: string) =>
    queryPages(store, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': prefix },
    });
  for await (const items of range(keys.developerKeyPrefix)) found.push(...items.map((item) => summary(toDeveloperKey(item))));
  // Each derived key under its parent (DKEY#<parent>#<id>: one range for the workspace's).
  for await (const items of range(derivedKeyKeys.prefix)) {
    for (const derived of items.map(toDerivedKey)) {
      const parent = found.find((key) => key.id === derived.parentKeyId);
      if (!parent) continue;
      const { accessHash: _a, refreshHash: _r, usedRefreshHashes: _u, workspace: _w, parentKeyId: _p, ...shown } = derived;
      parent.derivedKeys = [...(parent.derivedKeys ?? []), shown];
    }
  }
  return found;
}

/** Find which workspace key `id` belongs to (gsi1; retried briefly as the index is eventually consistent). */
async function workspaceOfKey(store: TableClient, id: string): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const { Items } = await store.db.send(
      new QueryCommand({
        TableName: store.table,
        IndexName: TABLE.gsi1.name,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.developerKeyLookup(id).gsi1pk },
      }),
    );
    const workspace = Items?.[0]?.workspace as string | undefined;
    if (workspace) return workspace;
    await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
  }
  throw new AdminError(`No key with id "${id}"`);
}

/** Revoke a key: the very next request with it gets 401. Revoking twice is harmless. */
export async function revokeDeveloperKey(store: TableClient, id: string): Promise<KeySummary> {
  const workspace = await workspaceOfKey(store, id);
  const { Attributes } = await store.db.send(
    new UpdateCommand({
      TableName: store.table,
      Key: keys.developerKey(workspace, id),
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':now': new Date().toISOString() },
      ReturnValues: 'ALL_NEW',
    }),
  );
  return summary(toDeveloperKey(Attributes!));
}

/** Issue a new secret for a key: the old one fails on the very next request. */
export async function rotateDeveloperKey(store: TableClient, id: string): Promise<KeySummary & { key: string }> {
  const workspace = await workspaceOfKey(store, id);
  const token = newToken(id);
  try {
    const { Attributes } = await store.db.send(
      new UpdateCommand({
        TableName: store.table,
        Key: keys.developerKey(workspace, id),
        UpdateExpression: 'SET secretHash = :hash, tokenHint = :hint, rotatedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        ExpressionAttributeValues: { ':hash': hashToken(token), ':hint': tokenHint(token), ':now': new Date().toISOString() },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return { ...summary(toDeveloperKey(Attributes!)), key: token };
  } catch (error) {
    if (isConditionFailure(error)) throw new AdminError(`Key "${id}" is revoked and cannot be rotated`);
    throw error;
  }
}
