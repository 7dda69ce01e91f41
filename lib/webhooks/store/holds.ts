/**
 * Held deliveries: what a disabled webhook keeps for a recovery. A held delivery is an ordinary
 * delivery record (store/deliveries.ts) in state `held`, at its usual key, and also in gsi1 under
 * `WS#<workspace>#WHHELD#<webhookId>#<shard>`, sorted by event id: the index holds only held
 * deliveries (an item has its gsi1 keys only while held), so counting or listing a webhook's held
 * deliveries reads them and nothing else, however many it delivered. The shards are the delivery's
 * own (a hash of its event id), for the same reason as the table's ranges: held deliveries are
 * written in event-id order, at up to the webhook's event rate.
 *
 * This module disables a webhook and holds its waiting retries in one transaction, holds a delivery
 * the delivery function finds for a disabled webhook, and counts and lists what is held.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { TABLE } from '../../platform/data/table.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { webhookDeliveryEntity, webhookEntity } from '../entities.ts';
import { type WebhookChanges, webhookChangesUpdate } from './webhooks.ts';

/** One transaction's worth: DynamoDB takes 100 items, and the webhook is one of them. */
const MAX_HELD_AT_ONCE = 99;

/** What a held delivery says (`error`), whichever way its webhook was disabled. */
const HELD_REASON = 'the webhook was disabled: a recovery sends it once it is enabled';

/** The attributes that put a delivery in the held index, and the state that goes with them. */
export function heldAttributes(workspace: string, webhookId: string, eventId: string): Record<string, unknown> {
  return { status: 'held', statusReason: HELD_REASON, ...webhookDeliveryEntity.keys.held(workspace, webhookId, eventId) };
}

/** A delivery waiting for a retry, as its webhook's disabling holds it. */
export interface WaitingRetry {
  key: { pk: string; sk: string };
  eventId: string;
}

/**
 * A webhook's deliveries waiting for a retry, newest first: one Query of its delivery ranges (one page).
 * Read beside the webhook, before the transaction that disables it.
 */
export async function findWaitingRetries(workspace: string, webhookId: string): Promise<WaitingRetry[]> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :retrying',
      ProjectionExpression: 'pk, sk, eventId',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': webhookEntity.keys.webhook(workspace, webhookId).pk,
        ':prefix': webhookDeliveryEntity.keys.prefix(webhookId),
        ':retrying': 'retrying',
      },
      ScanIndexForward: false,
    }),
  );
  return Items.slice(0, MAX_HELD_AT_ONCE).map((item) => ({
    key: { pk: item.pk as string, sk: item.sk as string },
    eventId: item.eventId as string,
  }));
}

/** The webhook's side of a disabling: what it sets besides its changes, on condition of what was read of it. */
export interface HoldingWrite {
  set: Record<string, unknown>;
  changes: WebhookChanges;
  condition: { enabled: boolean; url?: string; failingSince?: string };
}

/**
 * One transaction: the webhook disabled (its failure streak ends with it), and each of `retries`
 * held if it is still waiting with no attempt under way (one an attempt claimed meanwhile is left to
 * it: a second, last round holds the others). `missing`: no such webhook; `changed`: the webhook is
 * no longer as read (the caller reads again, or leaves it to whoever changed it).
 */
export async function disableAndHold(
  workspace: string,
  webhookId: string,
  write: HoldingWrite,
  retries: WaitingRetry[],
  nowMs = Date.now(),
): Promise<'written' | 'missing' | 'changed'> {
  const { updatedAt, ...set } = write.set;
  const webhook = webhookChangesUpdate(write.changes, updatedAt as string | undefined);
  for (const [name, value] of Object.entries(set)) webhook.set(name, value);
  for (const name of ['failingSince', 'lastErrors', 'lastFailureAt']) webhook.remove(name);
  const conditions = ['attribute_exists(pk)', `${webhook.placeholder('enabled')} = :wasEnabled`];
  const values: Record<string, unknown> = { ':wasEnabled': write.condition.enabled };
  if (write.condition.url !== undefined) {
    conditions.push(`${webhook.placeholder('url')} = :wasUrl`);
    values[':wasUrl'] = write.condition.url;
  }
  if (write.condition.failingSince !== undefined) {
    conditions.push(`${webhook.placeholder('failingSince')} = :wasFailingSince`);
    values[':wasFailingSince'] = write.condition.failingSince;
  }
  const webhookWrite: TransactWrite = {
    Update: {
      TableName: tableName,
      Key: webhookEntity.keys.webhook(workspace, webhookId),
      ...webhook.build({ expression: conditions.join(' AND '), values }),
    },
  };
  let held = retries;
  for (let round = 0; round < 2; round++) {
    try {
      await transact({
        webhook: webhookWrite,
        ...Object.fromEntries(held.map((retry) => [retry.eventId, holdRetry(workspace, webhookId, retry, nowMs)])),
      });
      return 'written';
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      if (error.failed('webhook')) return error.current('webhook') ? 'changed' : 'missing';
      const claimed = new Set(error.failedNames);
      held = held.filter((retry) => !claimed.has(retry.eventId));
    }
  }
  // Retries claimed twice in a row: the webhook alone (each retry holds itself when its attempt finds it disabled).
  try {
    await transact({ webhook: webhookWrite });
    return 'written';
  } catch (error) {
    if (error instanceof TransactionCancelledError && error.failed('webhook')) return error.current('webhook') ? 'changed' : 'missing';
    throw error;
  }
}

function holdRetry(workspace: string, webhookId: string, retry: WaitingRetry, nowMs: number): TransactWrite {
  const held = update();
  for (const [name, value] of Object.entries(heldAttributes(workspace, webhookId, retry.eventId))) held.set(name, value);
  held.remove('nextAttemptAt');
  return {
    Update: {
      TableName: tableName,
      Key: retry.key,
      // Still waiting, and no attempt under way (its result write would need the lease).
      ...held.build({
        expression: `${held.placeholder('status')} = :retrying AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)`,
        values: { ':retrying': 'retrying', ':now': nowMs },
      }),
    },
  };
}

/** The most a count reads: a webhook holding more says "at least" this many. */
const HELD_COUNT_CAP = 100_000;

/**
 * How many deliveries the webhook holds, from the held index (eventually consistent, as every gsi1
 * read: a delivery held within the last second may not be counted yet), up to HELD_COUNT_CAP: one
 * Query per shard, in parallel, each paged. An index entry is its keys and the few attributes gsi1
 * projects, about 250 bytes, so 10,000 held deliveries cost about 300 read units.
 */
export async function countHeld(workspace: string, webhookId: string): Promise<number> {
  const counts = await Promise.all(
    webhookDeliveryEntity.keys.heldRanges(workspace, webhookId).map(async (gsi1pk) => {
      let count = 0;
      let start: Record<string, unknown> | undefined;
      do {
        const page = await dynamo.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: TABLE.gsi1.name,
            KeyConditionExpression: 'gsi1pk = :pk',
            ExpressionAttributeValues: { ':pk': gsi1pk },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        );
        count += page.Count ?? 0;
        start = page.LastEvaluatedKey;
      } while (start && count < HELD_COUNT_CAP);
      return count;
    }),
  );
  return Math.min(
    HELD_COUNT_CAP,
    counts.reduce((a, b) => a + b, 0),
  );
}
