/**
 * Access patterns of delivery records: one item per (webhook, event), under the workspace's
 * partition, sorted by event id (time-ordered), kept 30 days (TTL). The record is the single
 * source of truth of a delivery; queue messages only ask for attempt N of it, so
 *   - a duplicate message (SQS is at-least-once, the stream consumer may run twice) finds the
 *     attempt already made or under way and is dropped;
 *   - an attempt is claimed with a lease before the request goes out, so two copies of one
 *     message never both send, and a crash mid-attempt frees the lease for the retried message.
 */
import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { isConditionFailure } from '../../platform/data/conditions.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import { TABLE } from '../../platform/data/table.ts';
import { TransactionCancelledError, transact } from '../../platform/data/transact.ts';
import { webhookDeliveryEntity } from '../entities.ts';
import { deliveryInProgress, deliveryNotFound } from '../errors.ts';
import type { WebhookEvent, WebhookEventType } from '../events.ts';
import type { delivery, deliveryAttempt } from '../schemas.ts';

/** Attempts kept in a record's history (the default schedule makes 11 per round). */
const MAX_ATTEMPTS_KEPT = 25;

/** A delivery as the API shows it, and each attempt in its history (the schemas the routes answer with). */
export type Delivery = z.output<typeof delivery>;
export type AttemptRecord = z.output<typeof deliveryAttempt>;
export type DeliveryOutcome = Delivery['outcome'];
const FINAL: readonly DeliveryOutcome[] = ['delivered', 'failed', 'cancelled'];

/** What the delivery function needs from a claimed record. */
export interface ClaimedDelivery {
  workspace: string;
  webhookId: string;
  eventId: string;
  eventType: WebhookEventType;
  payload: string;
  attempt: number;
  roundStart: number;
  attemptLog: AttemptRecord[];
  leaseToken: string;
  /** The record's key. */
  key: { pk: string; sk: string };
}

const deliveryKey = webhookDeliveryEntity.keys.delivery;

/**
 * Record that `event` is to be delivered to webhook `webhookId`, unless it already is (a repeated
 * stream record): the first write wins, so a duplicate never resets a delivery under way.
 */
export async function recordNewDelivery(
  workspace: string,
  webhookId: string,
  event: WebhookEvent,
  payload: string,
  nowMs = Date.now(),
): Promise<void> {
  const now = new Date(nowMs).toISOString();
  try {
    await dynamo.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...deliveryKey(workspace, webhookId, event.id),
          entity: webhookDeliveryEntity.name,
          workspace,
          webhookId,
          eventId: event.id,
          eventType: event.type,
          payload,
          status: 'pending',
          attempts: 0,
          nextAttempt: 1,
          roundStart: 1,
          attemptLog: [],
          nextAttemptAt: now,
          createdAt: now,
          ...webhookDeliveryEntity.expiry(nowMs),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

export type ClaimResult =
  | { claimed: ClaimedDelivery }
  /** `done`: final or already past this attempt (drop the message); `early`: the record has not caught up with this message yet (retry it soon); `busy`: another copy holds the attempt; `missing`: no record. */
  | { rejected: 'done' | 'early' | 'busy' | 'missing' };

/** Take attempt `attempt` of a delivery for `leaseSeconds`, if it is the next one and nobody holds it. */
export async function claimDeliveryAttempt(
  message: { workspace: string; webhookId: string; eventId: string; attempt: number },
  leaseSeconds: number,
  nowMs = Date.now(),
): Promise<ClaimResult> {
  const key = deliveryKey(message.workspace, message.webhookId, message.eventId);
  const leaseToken = randomUUID();
  const { written: item, refused } = await updateItem({
    TableName: tableName,
    Key: key,
    UpdateExpression: 'SET leaseUntil = :leaseUntil, leaseToken = :token',
    ConditionExpression:
      'attribute_exists(pk) AND #status IN (:pending, :retrying) AND nextAttempt = :attempt AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':leaseUntil': nowMs + leaseSeconds * 1000,
      ':token': leaseToken,
      ':pending': 'pending',
      ':retrying': 'retrying',
      ':attempt': message.attempt,
      ':now': nowMs,
    },
  });
  if (item) {
    return {
      claimed: {
        workspace: message.workspace,
        webhookId: message.webhookId,
        eventId: message.eventId,
        eventType: item.eventType as WebhookEventType,
        payload: item.payload as string,
        attempt: message.attempt,
        roundStart: item.roundStart as number,
        attemptLog: (item.attemptLog as AttemptRecord[] | undefined) ?? [],
        leaseToken,
        key,
      },
    };
  }
  const old = refused.current;
  if (!old) return { rejected: 'missing' };
  if (FINAL.includes(old.status as DeliveryOutcome)) return { rejected: 'done' };
  const nextAttempt = Number(old.nextAttempt);
  if (message.attempt < nextAttempt) return { rejected: 'done' };
  if (message.attempt > nextAttempt) return { rejected: 'early' };
  return { rejected: 'busy' };
}

export interface AttemptResult {
  attempt: AttemptRecord;
  /** `retrying` needs `nextAttemptAt`. */
  outcome: 'delivered' | 'retrying' | 'failed';
  nextAttemptAt?: string;
}

/** Write an attempt's result and release the lease, if the lease is still ours. */
export async function recordAttemptResult(claim: ClaimedDelivery, result: AttemptResult): Promise<boolean> {
  const log = [...claim.attemptLog, result.attempt].slice(-MAX_ATTEMPTS_KEPT);
  const sets = ['#status = :status', 'attempts = :attempt', 'nextAttempt = :next', 'attemptLog = :log', 'lastAttemptAt = :at'];
  const values: Record<string, unknown> = {
    ':status': result.outcome,
    ':attempt': claim.attempt,
    ':next': claim.attempt + 1,
    ':log': log,
    ':at': result.attempt.at,
    ':token': claim.leaseToken,
  };
  const removes = ['leaseUntil', 'leaseToken', 'statusReason'];
  if (result.outcome === 'retrying') {
    sets.push('nextAttemptAt = :nextAt');
    values[':nextAt'] = result.nextAttemptAt;
  } else {
    removes.push('nextAttemptAt');
  }
  return releaseWith(claim, `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`, values);
}

/** The webhook was deleted or disabled before this attempt: stop, without counting an attempt. */
export async function cancelDelivery(claim: ClaimedDelivery, reason: string): Promise<boolean> {
  return releaseWith(claim, 'SET #status = :status, statusReason = :reason REMOVE leaseUntil, leaseToken, nextAttemptAt', {
    ':status': 'cancelled',
    ':reason': reason,
    ':token': claim.leaseToken,
  });
}

/**
 * Retries cancelled by the disable request itself: one transaction's worth (DynamoDB's limit is 100
 * items). A webhook with more waiting retries has the rest cancelled by the delivery function when
 * each one's time comes, as before.
 */
const MAX_RETRIES_CANCELLED_AT_ONCE = 100;

/**
 * A webhook was just disabled: its deliveries waiting to be retried show `cancelled` at once rather
 * than `retrying` until their time comes. One Query (one page, newest first) and one transaction;
 * a delivery claimed for an attempt in between fails its condition and is left to that attempt
 * (which finds the webhook disabled), and the others are written in a second, last transaction.
 * Returns how many were cancelled.
 */
export async function cancelWaitingRetries(workspace: string, webhookId: string, reason: string, nowMs = Date.now()): Promise<number> {
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :retrying',
      ProjectionExpression: 'sk, eventId',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': workspacePk(workspace),
        ':prefix': webhookDeliveryEntity.keys.prefix(webhookId),
        ':retrying': 'retrying',
      },
      ScanIndexForward: false,
    }),
  );
  const keyOf = new Map(Items.map((item) => [item.eventId as string, { pk: workspacePk(workspace), sk: item.sk as string }]));
  let eventIds = Items.slice(0, MAX_RETRIES_CANCELLED_AT_ONCE).map((item) => item.eventId as string);
  for (let round = 0; round < 2 && eventIds.length > 0; round++) {
    try {
      await transact(
        Object.fromEntries(
          eventIds.map((eventId) => [
            eventId,
            {
              Update: {
                TableName: tableName,
                Key: keyOf.get(eventId),
                UpdateExpression: 'SET #status = :cancelled, statusReason = :reason REMOVE nextAttemptAt',
                // Still waiting, and no attempt under way (its result write would need the lease).
                ConditionExpression: '#status = :retrying AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ':cancelled': 'cancelled', ':retrying': 'retrying', ':reason': reason, ':now': nowMs },
              },
            },
          ]),
        ),
      );
      return eventIds.length;
    } catch (error) {
      if (!(error instanceof TransactionCancelledError)) throw error;
      // The ones an attempt claimed meanwhile are left to it; the rest are cancelled in a second round.
      const claimed = new Set(error.failedNames);
      eventIds = eventIds.filter((eventId) => !claimed.has(eventId));
    }
  }
  return 0;
}

async function releaseWith(claim: ClaimedDelivery, expression: string, values: Record<string, unknown>): Promise<boolean> {
  const { written } = await updateItem({
    TableName: tableName,
    Key: claim.key,
    UpdateExpression: expression,
    ConditionExpression: 'leaseToken = :token',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: values,
  });
  return written !== undefined;
}

/**
 * Queue a delivery again from its next attempt, with a fresh retry schedule, whatever its state
 * (a delivered event can be sent again; the receiver sees the same `webhook-id`). Returns the
 * attempt number the new message must ask for.
 */
export async function requeueDelivery(workspace: string, webhookId: string, eventId: string, nowMs = Date.now()): Promise<number> {
  const { written, refused } = await updateItem({
    TableName: tableName,
    Key: deliveryKey(workspace, webhookId, eventId),
    UpdateExpression:
      'SET #status = :pending, nextAttempt = attempts + :one, roundStart = attempts + :one, nextAttemptAt = :now, #ttl = :ttl REMOVE statusReason',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :nowMs)',
    ExpressionAttributeNames: { '#status': 'status', '#ttl': TABLE.ttlAttribute },
    ExpressionAttributeValues: {
      ':pending': 'pending',
      ':one': 1,
      ':now': new Date(nowMs).toISOString(),
      ':nowMs': nowMs,
      ':ttl': webhookDeliveryEntity.expiry(nowMs)[TABLE.ttlAttribute],
    },
  });
  if (written) return written.nextAttempt as number;
  if (!refused.current) throw deliveryNotFound();
  throw deliveryInProgress();
}
