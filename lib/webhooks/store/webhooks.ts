/**
 * Access patterns of webhook items. Every webhook of a workspace lives under its partition
 * (`WS#<workspace>`, `WEBHOOK#<id>`); a counter item beside them (`WEBHOOKCOUNT`) is changed in the
 * same transaction as every create and delete, so the per-workspace limit holds however many
 * creates race.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { type UpdateOutcome, updateItem } from '../../platform/data/conditional-update.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { counterAdd, TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { PUBLIC_WEBHOOK_ATTRIBUTES, webhookCounterEntity, webhookEntity } from '../entities.ts';
import { webhookChanged, webhookLimitReached, webhookNotFound } from '../errors.ts';
import type { WebhookEventType } from '../events.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE, toWebhook, toWebhookRecord, type Webhook, type WebhookRecord } from '../record.ts';
import { newWebhookSecret, secretPrefixOf } from '../signing.ts';

/** Projection of the public attributes; `name` and `url` are reserved words, so every name is aliased. */
const publicProjection = {
  ProjectionExpression: PUBLIC_WEBHOOK_ATTRIBUTES.map((_, i) => `#p${i}`).join(', '),
  ExpressionAttributeNames: Object.fromEntries(PUBLIC_WEBHOOK_ATTRIBUTES.map((name, i) => [`#p${i}`, name])),
};

export interface NewWebhook {
  name: string;
  url: string;
  events: WebhookEventType[];
}

/**
 * Create a disabled webhook with a new secret: one transaction with the workspace's counter, and,
 * with an Idempotency-Key, the remembered response (lib/platform/data/idempotency.ts).
 *
 * The remembered response never holds the secret: the idempotency record would be a second copy
 * of it, kept a day and shown to anyone replaying the key. `replayed` says the key was used before:
 * `webhook` is then the remembered response, and `secret` none of its.
 */
export async function createWebhook(
  workspace: string,
  input: NewWebhook,
  idempotency?: IdempotentRequest,
): Promise<{ webhook: Webhook; secret: string; replayed: boolean }> {
  const id = randomUUID();
  const secret = newWebhookSecret();
  const now = new Date().toISOString();
  const item = {
    ...webhookEntity.keys.webhook(workspace, id),
    entity: webhookEntity.name,
    id,
    workspace,
    name: input.name,
    url: input.url,
    events: input.events,
    enabled: false,
    secret,
    secretPrefix: secretPrefixOf(secret),
    createdAt: now,
    updatedAt: now,
  };
  try {
    const { response, replayed } = await createOnce(
      workspace,
      {
        counter: counterAdd(webhookCounterEntity.keys.counter(workspace), 'webhookCount', 1, {
          entity: webhookCounterEntity.name,
          condition: {
            expression: 'attribute_not_exists(webhookCount) OR webhookCount < :max',
            values: { ':max': MAX_WEBHOOKS_PER_WORKSPACE },
          },
        }),
        webhook: { Put: { TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
      },
      toWebhook(item),
      idempotency,
    );
    return { webhook: response, secret, replayed };
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('counter')) throw webhookLimitReached();
    throw error;
  }
}

/** Every webhook of the workspace (at most 50, so one query page), oldest first. */
export async function listWebhooks(workspace: string): Promise<Webhook[]> {
  const { Items } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': webhookEntity.keys.prefix },
      ...publicProjection,
    }),
  );
  return (Items ?? []).map(toWebhook).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

/** One webhook as the API shows it; 404 when the workspace has no such webhook. */
export async function getWebhook(workspace: string, id: string): Promise<Webhook> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: webhookEntity.keys.webhook(workspace, id), ...publicProjection }),
  );
  if (!Item) throw webhookNotFound();
  return toWebhook(Item);
}

/** One webhook with its secret, for the code that signs requests; null when it does not exist. */
export async function findWebhookRecord(workspace: string, id: string): Promise<WebhookRecord | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: webhookEntity.keys.webhook(workspace, id), ConsistentRead: true }),
  );
  return Item ? toWebhookRecord(Item) : null;
}

/** The enabled webhooks of a workspace and the events each wants (strongly consistent: a just-enabled webhook counts). */
export async function listEnabledSubscriptions(workspace: string): Promise<{ id: string; events: WebhookEventType[] }[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'enabled = :true',
    ProjectionExpression: 'id, events',
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': webhookEntity.keys.prefix, ':true': true },
    ConsistentRead: true,
  });
  return items.map((item) => ({ id: item.id as string, events: item.events as WebhookEventType[] }));
}

/**
 * Apply an update to an existing webhook (and `condition`), on the kit's conditional UpdateItem: the
 * webhook as written, or as it stood when the condition failed (undefined: there is none).
 */
function updateExisting(
  workspace: string,
  id: string,
  update: { expression: string; names?: Record<string, string>; values?: Record<string, unknown>; condition?: string },
): Promise<UpdateOutcome> {
  return updateItem({
    TableName: tableName,
    Key: webhookEntity.keys.webhook(workspace, id),
    UpdateExpression: update.expression,
    ConditionExpression: ['attribute_exists(pk)', update.condition].filter(Boolean).join(' AND '),
    ExpressionAttributeNames: update.names,
    ExpressionAttributeValues: update.values,
  });
}

export interface WebhookChanges {
  name?: string;
  url?: string;
  events?: WebhookEventType[];
}

/**
 * Change name, URL or events in one UpdateItem. A new URL disables the webhook (its receiver has
 * not proven it holds the secret), so a URL is written on condition that it differs from the one the
 * webhook has: null when it does not (the caller writes the rest without it). 404 when there is no
 * such webhook.
 */
export async function writeWebhookChanges(workspace: string, id: string, changes: WebhookChanges): Promise<Webhook | null> {
  const now = new Date().toISOString();
  const sets = ['updatedAt = :now'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': now };
  if (changes.name !== undefined) {
    sets.push('#name = :name');
    names['#name'] = 'name';
    values[':name'] = changes.name;
  }
  if (changes.events !== undefined) {
    sets.push('events = :events');
    values[':events'] = changes.events;
  }
  if (changes.url === undefined) {
    const { written } = await updateExisting(workspace, id, {
      expression: `SET ${sets.join(', ')}`,
      names: Object.keys(names).length ? names : undefined,
      values,
    });
    if (!written) throw webhookNotFound();
    return toWebhook(written);
  }
  const { written, refused } = await updateExisting(workspace, id, {
    expression: `SET ${[...sets, '#url = :url', 'enabled = :false'].join(', ')}`,
    names: { ...names, '#url': 'url' },
    values: { ...values, ':url': changes.url, ':false': false },
    condition: '#url <> :url',
  });
  if (written) return toWebhook(written);
  if (!refused.current) throw webhookNotFound();
  return null;
}

/** Delete a webhook and give its place back under the limit, in one transaction. */
export async function deleteWebhook(workspace: string, id: string): Promise<void> {
  try {
    await transact({
      webhook: {
        Delete: { TableName: tableName, Key: webhookEntity.keys.webhook(workspace, id), ConditionExpression: 'attribute_exists(pk)' },
      },
      counter: counterAdd(webhookCounterEntity.keys.counter(workspace), 'webhookCount', -1),
    });
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('webhook')) throw webhookNotFound();
    throw error;
  }
}

/** Replace the secret and disable the webhook; the old secret is never used again. */
export async function rotateWebhookSecret(workspace: string, id: string): Promise<{ webhook: Webhook; secret: string }> {
  const secret = newWebhookSecret();
  const { written } = await updateExisting(workspace, id, {
    expression: 'SET secret = :secret, secretPrefix = :prefix, enabled = :false, updatedAt = :now',
    values: { ':secret': secret, ':prefix': secretPrefixOf(secret), ':false': false, ':now': new Date().toISOString() },
  });
  if (!written) throw webhookNotFound();
  return { webhook: toWebhook(written), secret };
}

/**
 * Enable a webhook whose receiver just answered the verification event, provided its URL and
 * secret are still the ones verified (a concurrent PATCH or rotate wins: 409).
 */
export async function enableVerifiedWebhook(workspace: string, verified: WebhookRecord): Promise<Webhook> {
  const { written, refused } = await updateExisting(workspace, verified.id, {
    expression: 'SET enabled = :true, updatedAt = :now',
    names: { '#url': 'url' },
    values: { ':true': true, ':now': new Date().toISOString(), ':url': verified.url, ':secret': verified.secret },
    condition: '#url = :url AND secret = :secret',
  });
  if (written) return toWebhook(written);
  if (!refused.current) throw webhookNotFound();
  throw webhookChanged();
}

/**
 * Disable a webhook; with `whileUrl`, only if that is still its URL (a receiver's 410 Gone is about
 * the URL it was sent to: if the URL changed since, the answer says nothing about the new one).
 * Null when the URL changed; 404 when there is no such webhook.
 */
export async function disableWebhook(workspace: string, id: string, whileUrl?: string): Promise<Webhook | null> {
  const { written, refused } = await updateExisting(workspace, id, {
    expression: 'SET enabled = :false, updatedAt = :now',
    values: { ':false': false, ':now': new Date().toISOString(), ...(whileUrl === undefined ? {} : { ':url': whileUrl }) },
    ...(whileUrl === undefined ? {} : { names: { '#url': 'url' }, condition: '#url = :url' }),
  });
  if (written) return toWebhook(written);
  if (!refused.current) throw webhookNotFound();
  return null;
}
