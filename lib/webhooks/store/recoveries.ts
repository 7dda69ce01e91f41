/**
 * Recovery records (`POST /webhooks/{id}/recover`): one item per recovery,
 * `WHRECOVERY#<webhookId>#<recoveryId>`, kept as long as deliveries. The record is the job's single
 * source of truth, as a delivery record is a delivery's: its queue messages only ask for step N, and
 * a step claims the record with a lease before it does anything, so a duplicate or stale message is
 * dropped and two copies of one step never both run. Every change of a step is one conditional
 * write that needs its lease: where the walk stands and the deliveries it took up together with the
 * counts they move, so a step that dies leaves the record exact and the next one carries on from it.
 *
 * One recovery runs at a time per webhook: the webhook item names it (`recoveryId`), with a time
 * after which it counts as dead (`recoveryBusyUntil`, pushed forward by each step): a new recovery
 * takes over a dead one and stops its record in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { createOnce, type IdempotentRequest } from '../../platform/data/idempotency.ts';
import { TransactionCancelledError, type TransactWrite, transact } from '../../platform/data/transact.ts';
import { update } from '../../platform/data/update.ts';
import { webhookEntity, webhookRecoveryEntity } from '../entities.ts';
import { recoveryInProgress, webhookDisabled, webhookNotFound } from '../errors.ts';
import type { WebhookRecord } from '../record.ts';
import type { RecoveryWindow, TakenDelivery } from '../recovery-window.ts';
import type { Recovery } from '../schemas.ts';

/** A recovery whose steps have not moved for this long is dead: a new one may take its webhook over. */
export const RECOVERY_STALE_MS = 10 * 60_000;

/** A recovery as stored: what the API shows, and where its walk stands. */
export interface StoredRecovery extends Recovery {
  workspace: string;
  /** Its window as event ids (recovery-window.ts). */
  from: string;
  to: string;
  /** The walk has read every delivery up to this event id (exclusive start of the next read); null before the first. */
  position: string | null;
  /** The deliveries it took up and has not finished with, in event order. */
  taken: TakenDelivery[];
  /** Attempts that failed in a row, across steps: it stops at MAX_FAILURES_IN_A_ROW. */
  failuresInARow: number;
  step: number;
}

const RECORD_FIELDS = ['id', 'webhookId', 'since', 'until', 'status', 'queued', 'delivered', 'failed', 'createdAt', 'updatedAt'] as const;

export function toRecovery(item: Record<string, unknown>): Recovery {
  return {
    ...(Object.fromEntries(RECORD_FIELDS.map((name) => [name, item[name]])) as Pick<Recovery, (typeof RECORD_FIELDS)[number]>),
    stoppedReason: (item.stoppedReason as string | undefined) ?? null,
    finishedAt: (item.finishedAt as string | undefined) ?? null,
  };
}

function toStoredRecovery(item: Record<string, unknown>): StoredRecovery {
  return {
    ...toRecovery(item),
    workspace: item.workspace as string,
    from: item.from as string,
    to: item.to as string,
    position: (item.position as string | undefined) ?? null,
    taken: (item.taken as TakenDelivery[] | undefined) ?? [],
    failuresInARow: (item.failuresInARow as number | undefined) ?? 0,
    step: item.step as number,
  };
}

/**
 * Start a recovery of `webhook` (as read: enabled, and no live recovery) over `window`: one transaction
 * that makes the webhook name it, puts its record, stops a dead recovery's record it takes over, and
 * remembers the answer under an Idempotency-Key. 404, 400 `webhook_disabled` or 409
 * `recovery_in_progress` when the webhook changed since it was read.
 */
export async function startRecovery(
  workspace: string,
  webhook: WebhookRecord,
  window: RecoveryWindow,
  idempotency: IdempotentRequest | undefined,
  nowMs = Date.now(),
): Promise<{ recovery: Recovery; replayed: boolean }> {
  const id = randomUUID();
  const now = new Date(nowMs).toISOString();
  const record = {
    ...webhookRecoveryEntity.keys.recovery(workspace, webhook.id, id),
    entity: webhookRecoveryEntity.name,
    id,
    webhookId: webhook.id,
    workspace,
    since: window.since,
    until: window.until,
    from: window.from,
    to: window.to,
    status: 'queued',
    queued: 0,
    delivered: 0,
    failed: 0,
    failuresInARow: 0,
    taken: [],
    step: 1,
    createdAt: now,
    updatedAt: now,
    ...webhookRecoveryEntity.expiry(nowMs),
  };
  const takenOver = webhook.recoveryId;
  const lock = update()
    .set('recoveryId', id)
    .set('recoveryBusyUntil', nowMs + RECOVERY_STALE_MS);
  const free = takenOver
    ? `${lock.placeholder('recoveryId')} = :deadRecovery AND ${lock.placeholder('recoveryBusyUntil')} < :now`
    : `attribute_not_exists(${lock.placeholder('recoveryId')})`;
  const writes: Record<string, TransactWrite | undefined> = {
    webhook: {
      Update: {
        TableName: tableName,
        Key: webhookEntity.keys.webhook(workspace, webhook.id),
        ...lock.build({
          expression: `attribute_exists(pk) AND enabled = :true AND ${free}`,
          values: { ':true': true, ...(takenOver ? { ':deadRecovery': takenOver, ':now': nowMs } : {}) },
        }),
      },
    },
    recovery: { Put: { TableName: tableName, Item: record, ConditionExpression: 'attribute_not_exists(pk)' } },
    takenOver: takenOver ? stopDead(workspace, webhook.id, takenOver, now) : undefined,
  };
  try {
    const { response, replayed } = await createOnce(workspace, writes, toRecovery(record), idempotency);
    return { recovery: response, replayed };
  } catch (error) {
    if (!(error instanceof TransactionCancelledError)) throw error;
    const current = error.current('webhook');
    if (current === undefined) throw webhookNotFound();
    if (current && current.enabled !== true) throw webhookDisabled('recovering its deliveries');
    if (current) throw recoveryInProgress(current.recoveryId as string);
    throw error;
  }
}

/** The dead recovery's record, stopped as the new one takes over (if it had finished after all, nothing changes). */
function stopDead(workspace: string, webhookId: string, recoveryId: string, now: string): TransactWrite {
  const stopped = update()
    .set('status', 'stopped')
    .set('stoppedReason', 'it made no progress for 10 minutes; a new recovery took over')
    .set('finishedAt', now)
    .set('updatedAt', now)
    .remove('taken');
  return {
    Update: {
      TableName: tableName,
      Key: webhookRecoveryEntity.keys.recovery(workspace, webhookId, recoveryId),
      // A record that expired is not made again: the condition fails only for one that does not exist.
      ...stopped.build({ expression: 'attribute_exists(pk)' }),
    },
  };
}

/** A recovery of this webhook, or null. */
export async function findRecovery(workspace: string, webhookId: string, recoveryId: string): Promise<StoredRecovery | null> {
  const { Item } = await dynamo.send(
    new GetCommand({
      TableName: tableName,
      Key: webhookRecoveryEntity.keys.recovery(workspace, webhookId, recoveryId),
      ConsistentRead: true,
    }),
  );
  return Item ? toStoredRecovery(Item) : null;
}

export interface ClaimedStep {
  recovery: StoredRecovery;
  leaseToken: string;
}

export type StepClaim =
  | { claimed: ClaimedStep }
  /** `done`: finished, or past this step; `early`: the record has not caught up with this message; `busy`: another copy runs it until `leaseUntil`; `missing`: no record (it expired). */
  | { rejected: 'done' | 'early' | 'missing' }
  | { rejected: 'busy'; leaseUntil: number };

/** Take step `step` of a recovery for `leaseSeconds`, if it is its next step and nobody holds it. */
export async function claimRecoveryStep(
  message: { workspace: string; webhookId: string; recoveryId: string; step: number },
  leaseSeconds: number,
  nowMs = Date.now(),
): Promise<StepClaim> {
  const leaseToken = randomUUID();
  const claim = update()
    .set('status', 'running')
    .set('leaseUntil', nowMs + leaseSeconds * 1000)
    .set('leaseToken', leaseToken);
  const { written, refused } = await updateItem({
    TableName: tableName,
    Key: webhookRecoveryEntity.keys.recovery(message.workspace, message.webhookId, message.recoveryId),
    ...claim.build({
      expression:
        `attribute_exists(pk) AND ${claim.placeholder('status')} IN (:queued, :running) AND step = :step AND ` +
        `(attribute_not_exists(${claim.placeholder('leaseUntil')}) OR ${claim.placeholder('leaseUntil')} < :now)`,
      values: { ':queued': 'queued', ':running': 'running', ':step': message.step, ':now': nowMs },
    }),
  });
  if (written) return { claimed: { recovery: toStoredRecovery(written), leaseToken } };
  const current = refused.current;
  if (!current) return { rejected: 'missing' };
  if (current.status === 'done' || current.status === 'stopped' || (current.step as number) > message.step) return { rejected: 'done' };
  if ((current.step as number) < message.step) return { rejected: 'early' };
  return { rejected: 'busy', leaseUntil: current.leaseUntil as number };
}

/** What a part of a step changes: where the walk stands, what it holds, and the counts it moves. */
export interface Progress {
  position?: string;
  taken: TakenDelivery[];
  failuresInARow: number;
  queued?: number;
  delivered?: number;
  failed?: number;
}

/** Write a part of a step, if the step still holds the lease: false when it lost it (another copy took over). */
export async function saveRecoveryProgress(step: ClaimedStep, progress: Progress, nowMs = Date.now()): Promise<boolean> {
  const saved = update()
    .set('taken', progress.taken)
    .set('failuresInARow', progress.failuresInARow)
    .set('updatedAt', new Date(nowMs).toISOString());
  if (progress.position !== undefined) saved.set('position', progress.position);
  for (const counter of ['queued', 'delivered', 'failed'] as const) {
    if (progress[counter]) saved.add(counter, progress[counter]);
  }
  return leased(step, saved);
}

/** End a step that ran out of time: the next step's message is queued already; this lets it claim. */
export async function passRecoveryOn(step: ClaimedStep, nextStep: number): Promise<boolean> {
  return leased(step, update().set('step', nextStep).remove('leaseUntil').remove('leaseToken'));
}

async function leased(step: ClaimedStep, change: ReturnType<typeof update>): Promise<boolean> {
  const { recovery } = step;
  const { written } = await updateItem({
    TableName: tableName,
    Key: webhookRecoveryEntity.keys.recovery(recovery.workspace, recovery.webhookId, recovery.id),
    ...change.build({ expression: `${change.placeholder('leaseToken')} = :token`, values: { ':token': step.leaseToken } }),
  });
  return written !== undefined;
}

/**
 * Finish: the record `done` or `stopped` and the webhook free for the next recovery, in one
 * transaction; a webhook deleted or taken over meanwhile is left as it is. False when the step lost
 * its lease.
 */
export async function finishRecovery(
  step: ClaimedStep,
  outcome: { status: 'done' } | { status: 'stopped'; reason: string },
  nowMs = Date.now(),
): Promise<boolean> {
  const { recovery } = step;
  const now = new Date(nowMs).toISOString();
  const finished = update()
    .set('status', outcome.status)
    .set('finishedAt', now)
    .set('updatedAt', now)
    .set('taken', [])
    .remove('leaseUntil')
    .remove('leaseToken');
  if (outcome.status === 'stopped') finished.set('stoppedReason', outcome.reason);
  const record: TransactWrite = {
    Update: {
      TableName: tableName,
      Key: webhookRecoveryEntity.keys.recovery(recovery.workspace, recovery.webhookId, recovery.id),
      ...finished.build({ expression: `${finished.placeholder('leaseToken')} = :token`, values: { ':token': step.leaseToken } }),
    },
  };
  const unlock = update().remove('recoveryId').remove('recoveryBusyUntil');
  const webhook: TransactWrite = {
    Update: {
      TableName: tableName,
      Key: webhookEntity.keys.webhook(recovery.workspace, recovery.webhookId),
      ...unlock.build({ expression: `${unlock.placeholder('recoveryId')} = :id`, values: { ':id': recovery.id } }),
    },
  };
  try {
    await transact({ record, webhook });
    return true;
  } catch (error) {
    if (!(error instanceof TransactionCancelledError) || error.failed('record')) {
      if (error instanceof TransactionCancelledError) return false;
      throw error;
    }
    // The webhook no longer names this recovery (deleted, or taken over): the record alone.
    await transact({ record });
    return true;
  }
}
