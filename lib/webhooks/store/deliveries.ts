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
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as z from 'zod/mini';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { isConditionFailure } from '../../platform/data/conditions.ts';
import { TABLE } from '../../platform/data/table.ts';
import { update } from '../../platform/data/update.ts';
import { webhookDeliveryEntity } from '../entities.ts';
import { deliveryInProgress, deliveryNotFound } from '../errors.ts';
import type { DeliveryEventType } from '../events.ts';
import type { delivery, deliveryAttempt } from '../schemas.ts';
import { heldAttributes } from './holds.ts';

/** Attempts kept in a record's history (the default schedule makes 11 per round). */
const MAX_ATTEMPTS_KEPT = 25;

/** A delivery as the API shows it, and each attempt in its history (the schemas the routes answer with). */
export type Delivery = z.output<typeof delivery>;
export type AttemptRecord = z.output<typeof deliveryAttempt>;
export type DeliveryOutcome = Delivery['outcome'];
/** No queue message asks for an attempt of these: a recovery (held, failed, cancelled) or a redelivery sends them again. */
const FINAL: readonly DeliveryOutcome[] = ['delivered', 'failed', 'cancelled', 'held'];

/** What the delivery function needs from a claimed record. */
export interface ClaimedDelivery {
  workspace: string;
  webhookId: string;
  eventId: string;
  eventType: DeliveryEventType;
  payload: string;
  attempt: number;
  roundStart: number;
  attemptLog: AttemptRecord[];
  leaseToken: string;
  /** The record's key. */
  key: { pk: string; sk: string };
}

const deliveryKey = webhookDeliveryEntity.keys.delivery;

/** A delivery as the API shows it, from its record. */
export function toDelivery(item: Record<string, unknown>): Delivery {
  const log = (item.attemptLog as AttemptRecord[] | undefined) ?? [];
  const last = log.at(-1);
  const outcome = item.status as DeliveryOutcome;
  return {
    id: item.eventId as string,
    eventId: item.eventId as string,
    eventType: item.eventType as DeliveryEventType,
    outcome,
    attempt: (item.attempts as number | undefined) ?? 0,
    responseStatus: last?.responseStatus ?? null,
    durationMs: last?.durationMs ?? null,
    error: (item.statusReason as string | undefined) ?? (outcome === 'delivered' ? null : (last?.error ?? null)),
    createdAt: item.createdAt as string,
    lastAttemptAt: (item.lastAttemptAt as string | undefined) ?? null,
    nextAttemptAt: WAITING.includes(outcome) ? ((item.nextAttemptAt as string | undefined) ?? null) : null,
    recoveryId: (item.recoveryId as string | undefined) ?? null,
    // Newest first, each in the documented field order (DynamoDB maps come back in any order).
    attempts: [...log].reverse().map((a) => ({
      attempt: a.attempt,
      at: a.at,
      outcome: a.outcome,
      responseStatus: a.responseStatus,
      durationMs: a.durationMs,
      error: a.error,
    })),
  };
}

/** The states in which a delivery waits for a queue message's attempt (`nextAttemptAt` says when). */
const WAITING: readonly DeliveryOutcome[] = ['pending', 'retrying', 'throttled'];

/** What a delivery is of: its event's id, kind and the time its change was committed. */
export interface DeliveredEvent {
  id: string;
  type: DeliveryEventType;
  timestamp: string;
}

/**
 * Record that `event` is to be delivered to webhook `webhookId` (`pending`, its message queued next),
 * or held for it (a disabled webhook: no message, in the held index), unless it already is (a
 * repeated stream record): the first write wins, so a duplicate never resets a delivery under way.
 * The event's own time (`eventAt`) is what a recovery's window is on.
 */
export async function recordNewDelivery(
  workspace: string,
  webhookId: string,
  event: DeliveredEvent,
  payload: string,
  state: 'pending' | 'held' = 'pending',
  nowMs = Date.now(),
): Promise<Delivery> {
  const now = new Date(nowMs).toISOString();
  const item = {
    ...webhookDeliveryEntity.keys.delivery(workspace, webhookId, event.id),
    entity: webhookDeliveryEntity.name,
    workspace,
    webhookId,
    eventId: event.id,
    eventType: event.type,
    eventAt: event.timestamp,
    payload,
    attempts: 0,
    nextAttempt: 1,
    roundStart: 1,
    attemptLog: [],
    createdAt: now,
    ...(state === 'held' ? heldAttributes(workspace, webhookId, event.id) : { status: 'pending', nextAttemptAt: now }),
    ...webhookDeliveryEntity.expiry(nowMs),
  };
  try {
    await dynamo.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  return toDelivery(item);
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
      'attribute_exists(pk) AND #status IN (:pending, :retrying, :throttled) AND nextAttempt = :attempt AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':leaseUntil': nowMs + leaseSeconds * 1000,
      ':token': leaseToken,
      ':pending': 'pending',
      ':retrying': 'retrying',
      ':throttled': 'throttled',
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
        eventType: item.eventType as DeliveryEventType,
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
  /** `retrying` needs `nextAttemptAt`; `held`: the attempt disabled its webhook (failing past the window). */
  outcome: 'delivered' | 'retrying' | 'failed' | 'held';
  nextAttemptAt?: string;
}

/** Write an attempt's result and release the lease, if the lease is still ours. */
export async function recordAttemptResult(claim: ClaimedDelivery, result: AttemptResult): Promise<boolean> {
  const log = [...claim.attemptLog, result.attempt].slice(-MAX_ATTEMPTS_KEPT);
  const recorded = update()
    .set('attempts', claim.attempt)
    .set('nextAttempt', claim.attempt + 1)
    .set('attemptLog', log)
    .set('lastAttemptAt', result.attempt.at)
    .remove('leaseUntil')
    .remove('leaseToken');
  if (result.outcome === 'held') {
    for (const [name, value] of Object.entries(heldAttributes(claim.workspace, claim.webhookId, claim.eventId))) recorded.set(name, value);
  } else {
    recorded.set('status', result.outcome).remove('statusReason');
  }
  if (result.outcome === 'retrying') recorded.set('nextAttemptAt', result.nextAttemptAt);
  else recorded.remove('nextAttemptAt');
  return released(claim, recorded);
}

/** The webhook was deleted before this attempt: stop, without counting an attempt. */
export async function cancelDelivery(claim: ClaimedDelivery, reason: string): Promise<boolean> {
  return released(
    claim,
    update().set('status', 'cancelled').set('statusReason', reason).remove('leaseUntil').remove('leaseToken').remove('nextAttemptAt'),
  );
}

/** The webhook is disabled: held for a recovery, without counting an attempt. */
export async function holdDelivery(claim: ClaimedDelivery): Promise<boolean> {
  const held = update().remove('leaseUntil').remove('leaseToken').remove('nextAttemptAt');
  for (const [name, value] of Object.entries(heldAttributes(claim.workspace, claim.webhookId, claim.eventId))) held.set(name, value);
  return released(claim, held);
}

/** Over the webhook's rate: the same attempt waits until `nextAttemptAt` (its message is queued for then), never counted. */
export async function throttleDelivery(claim: ClaimedDelivery, nextAttemptAt: string): Promise<boolean> {
  return released(claim, update().set('status', 'throttled').set('nextAttemptAt', nextAttemptAt).remove('leaseUntil').remove('leaseToken'));
}

async function released(claim: ClaimedDelivery, change: ReturnType<typeof update>): Promise<boolean> {
  const { written } = await updateItem({
    TableName: tableName,
    Key: claim.key,
    ...change.build({ expression: `${change.placeholder('leaseToken')} = :token`, values: { ':token': claim.leaseToken } }),
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
      'SET #status = :pending, nextAttempt = attempts + :one, roundStart = attempts + :one, nextAttemptAt = :now, #ttl = :ttl ' +
      // Out of the held index, and no recovery's any more: the redelivery sends it.
      'REMOVE statusReason, gsi1pk, gsi1sk, recoveryId, wasBeforeRecovery',
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
