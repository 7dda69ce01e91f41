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
import { update } from '../../platform/data/update.ts';
import { PUBLIC_WEBHOOK_ATTRIBUTES, webhookCounterEntity, webhookEntity } from '../entities.ts';
import { webhookChanged, webhookLimitReached, webhookNotFound } from '../errors.ts';
import type { WebhookEventType } from '../events.ts';
import type { FailureState } from '../failure-window.ts';
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
  maxDeliveriesPerSecond?: number | null;
}

/**
 * Create a disabled webhook with a new secret: one transaction with the workspace's counter, and,
 * with an Idempotency-Key, the remembered response (lib/platform/data/idempotency.ts).
 *
 * The remembered response never holds the secret: the idempotency record would be a second copy
 * of it, kept a day and shown to anyone replaying the key. `replayed` says the key was used before:
 * `webhook` is then the remembered response, and `secret` none of its.
 */
export async function writeNewWebhook(
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
    ...(input.maxDeliveriesPerSecond ? { maxDeliveriesPerSecond: input.maxDeliveriesPerSecond } : {}),
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

/**
 * The webhooks of a workspace events go to, and the events each wants: the enabled ones, and the
 * disabled ones that hold their events (a reason says they were enabled once). Strongly consistent:
 * a just-enabled or just-disabled webhook counts as it now is.
 */
export async function listSubscriptions(workspace: string): Promise<{ id: string; events: WebhookEventType[]; enabled: boolean }[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'enabled = :true OR attribute_type(disabledReason, :map)',
    ProjectionExpression: 'id, events, enabled',
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': webhookEntity.keys.prefix, ':true': true, ':map': 'M' },
    ConsistentRead: true,
  });
  return items.map((item) => ({ id: item.id as string, events: item.events as WebhookEventType[], enabled: item.enabled === true }));
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
  /** null removes the limit. */
  maxDeliveriesPerSecond?: number | null;
}

/** The fields a change may write, and nothing a client named beyond them (the update builder's allow-list). */
const CHANGEABLE = ['name', 'url', 'events', 'maxDeliveriesPerSecond'] as const;

/** A change's writes, with `updatedAt`, ready for more (a disabling adds its own: disabling.ts). */
export function webhookChangesUpdate(changes: WebhookChanges, now = new Date().toISOString()) {
  return update().set('updatedAt', now).patch(changes, CHANGEABLE);
}

/**
 * Change name, events or the rate limit in one UpdateItem (a new URL disables the webhook, so it
 * goes through disabling.ts instead). 404 when there is no such webhook.
 */
export async function writeWebhookChanges(workspace: string, id: string, changes: Omit<WebhookChanges, 'url'>): Promise<Webhook> {
  const { written } = await updateItem({
    TableName: tableName,
    Key: webhookEntity.keys.webhook(workspace, id),
    ...webhookChangesUpdate(changes).build({ expression: 'attribute_exists(pk)' }),
  });
  if (!written) throw webhookNotFound();
  return toWebhook(written);
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

/**
 * Enable a webhook whose receiver just answered the verification event, provided its URL and
 * secret are still the ones verified (a concurrent PATCH or rotate wins: 409). Its disabled reason
 * and its failure streak end with it: the window starts again.
 */
export async function enableVerifiedWebhook(workspace: string, verified: WebhookRecord): Promise<Webhook> {
  const { written, refused } = await updateExisting(workspace, verified.id, {
    expression: 'SET enabled = :true, updatedAt = :now REMOVE disabledReason, failingSince, lastErrors, lastFailureAt',
    names: { '#url': 'url' },
    values: { ':true': true, ':now': new Date().toISOString(), ':url': verified.url, ':secret': verified.secret },
    condition: '#url = :url AND secret = :secret',
  });
  if (written) return toWebhook(written);
  if (!refused.current) throw webhookNotFound();
  throw webhookChanged();
}

/**
 * Write a webhook's failure streak as the failure window noted it (failure-window.ts), or end it
 * (null: a 2xx). Only on a webhook that is still enabled: a disabled one has no streak (its reason
 * says why it stopped).
 */
export async function writeFailureState(workspace: string, id: string, state: FailureState | null): Promise<void> {
  const noted = update();
  if (state === null) noted.remove('failingSince').remove('lastErrors').remove('lastFailureAt');
  else noted.set('failingSince', state.failingSince).set('lastErrors', state.lastErrors).set('lastFailureAt', state.lastFailureAt);
  await updateItem({
    TableName: tableName,
    Key: webhookEntity.keys.webhook(workspace, id),
    ...noted.build({ expression: `attribute_exists(pk) AND ${noted.placeholder('enabled')} = :true`, values: { ':true': true } }),
  });
}

/**
 * A recovery's step, starting: push forward the time until which the webhook counts its recovery as
 * alive, and read the webhook (its URL, secret, rate, state), in one write. Null when the webhook is
 * gone or names another recovery (a new one took a dead one over).
 */
export async function holdRecoveryLock(
  workspace: string,
  id: string,
  recoveryId: string,
  busyUntil: number,
): Promise<WebhookRecord | null> {
  const lock = update().set('recoveryBusyUntil', busyUntil);
  const { written } = await updateItem({
    TableName: tableName,
    Key: webhookEntity.keys.webhook(workspace, id),
    ...lock.build({ expression: `${lock.placeholder('recoveryId')} = :id`, values: { ':id': recoveryId } }),
  });
  return written ? toWebhookRecord(written) : null;
}
