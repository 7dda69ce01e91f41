/**
 * What a recovery does to delivery records (store/deliveries.ts holds their life; the recovery's own
 * record is store/recoveries.ts): the walk through a webhook's delivery ranges in event order, each
 * held, failed or cancelled delivery taken up with one conditional write (so it is sent once, by
 * this recovery, whatever else runs), its attempt claimed with the lease every attempt takes, and
 * what a stopped recovery did not send given back as it was.
 *
 * A delivery taken up reads `pending` with the recovery's id (`recoveryId`) and the attempt it will
 * make (`nextAttempt`); no queue message names it, so only the recovery sends it. The walk finds it
 * again if the step that took it died before the record said so, and takes it again as its own.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { updateItem } from '../../platform/data/conditional-update.ts';
import { update } from '../../platform/data/update.ts';
import { webhookDeliveryEntity, webhookEntity } from '../entities.ts';
import type { WebhookEventType } from '../events.ts';
import {
  eventTimesFrom,
  mergeRangePages,
  type RangePage,
  type Recoverable,
  type TakenDelivery,
  type TakenRecord,
} from '../recovery-window.ts';
import type { AttemptRecord, ClaimedDelivery } from './deliveries.ts';
import { heldAttributes } from './holds.ts';

/** Evaluated deliveries a range's Query reads per page: a page of a filtered Query bills what it reads. */
const READ_PER_RANGE = 100;

interface Found {
  eventId: string;
  key: { pk: string; sk: string };
  status: string;
  attempts: number;
  recoveryId: string | null;
  /** What a delivery the recovery took up was before. */
  wasBeforeRecovery: string | null;
}

const foundOf = (item: Record<string, unknown>): Found => ({
  eventId: item.eventId as string,
  key: { pk: item.pk as string, sk: item.sk as string },
  status: item.status as string,
  attempts: (item.attempts as number | undefined) ?? 0,
  recoveryId: (item.recoveryId as string | undefined) ?? null,
  wasBeforeRecovery: (item.wasBeforeRecovery as string | undefined) ?? null,
});

/**
 * The next deliveries of the window after `position` (null: from the window's start), in event order,
 * that the recovery must send: held, failed or cancelled ones whose event was committed inside the
 * window (`eventAt`; a record written before it had one, by when it was recorded), and its own taken
 * up by a step that died before saying so. One Query per range, in parallel.
 */
export async function nextToRecover(
  workspace: string,
  webhookId: string,
  recoveryId: string,
  window: { since: string; until: string; from: string; to: string; position: string | null },
  limit: number,
): Promise<{ found: Found[]; next: string | null }> {
  const start = window.position ?? window.from;
  const pages = await Promise.all(
    webhookDeliveryEntity.keys.ranges(webhookId).map(async (range): Promise<RangePage<Found>> => {
      const { Items = [], LastEvaluatedKey } = await dynamo.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          FilterExpression:
            '(#status IN (:held, :failed, :cancelled) OR (recoveryId = :recovery AND #status = :pending)) AND ' +
            '(eventAt BETWEEN :since AND :until OR (attribute_not_exists(eventAt) AND createdAt BETWEEN :since AND :until))',
          ProjectionExpression: 'pk, sk, eventId, #status, attempts, recoveryId, wasBeforeRecovery',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':pk': webhookEntity.keys.webhook(workspace, webhookId).pk,
            ':from': range.at(start),
            ':to': range.at(window.to),
            ':held': 'held',
            ':failed': 'failed',
            ':cancelled': 'cancelled',
            ':pending': 'pending',
            ':recovery': recoveryId,
            ':since': eventTimesFrom(window.since),
            ':until': window.until,
          },
          Limit: READ_PER_RANGE,
          ConsistentRead: true,
        }),
      );
      return {
        // BETWEEN is inclusive: the delivery at the position itself was read before.
        items: Items.map(foundOf).filter((found) => window.position === null || found.eventId > window.position),
        reached: LastEvaluatedKey ? (LastEvaluatedKey.sk as string).split('#').at(-1)! : null,
      };
    }),
  );
  const { items, next } = mergeRangePages(pages, limit);
  return { found: items, next };
}

/**
 * Take up what the walk found for this recovery, each with one conditional write (in parallel): a
 * delivery still in the state the walk read, with no attempt under way, becomes `pending` for the
 * recovery, out of the held index; one the recovery took already is its own. What someone else took
 * meanwhile is left out. In event order.
 */
export async function takeUp(recoveryId: string, found: Found[], nowMs = Date.now()): Promise<TakenDelivery[]> {
  const taken = await Promise.all(
    found.map(async (delivery): Promise<TakenDelivery | null> => {
      const attempt = delivery.attempts + 1;
      // Its own, taken up by a step that died before its record said so.
      if (delivery.status === 'pending')
        return { eventId: delivery.eventId, attempt, was: (delivery.wasBeforeRecovery ?? 'held') as Recoverable };
      const take = update()
        .set('status', 'pending')
        .set('recoveryId', recoveryId)
        .set('nextAttempt', attempt)
        .set('roundStart', attempt)
        .set('wasBeforeRecovery', delivery.status)
        .remove('statusReason')
        .remove('nextAttemptAt')
        .remove('gsi1pk')
        .remove('gsi1sk');
      const { written } = await updateItem({
        TableName: tableName,
        Key: delivery.key,
        ...take.build({
          expression:
            `${take.placeholder('status')} = :was AND attempts = :attempts AND ` +
            '(attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
          values: { ':was': delivery.status, ':attempts': delivery.attempts, ':now': nowMs },
        }),
      });
      return written ? { eventId: delivery.eventId, attempt, was: delivery.status as Recoverable } : null;
    }),
  );
  return taken.filter((t): t is TakenDelivery => t !== null);
}

/** The taken deliveries' records as they stand (strongly consistent), by event id. */
export async function readTaken(
  workspace: string,
  webhookId: string,
  taken: TakenDelivery[],
): Promise<Map<string, TakenRecord & { was: string | null }>> {
  const items = await getMany(
    taken.map((t) => webhookDeliveryEntity.keys.delivery(workspace, webhookId, t.eventId)),
    { attributes: ['eventId', 'status', 'attempts', 'recoveryId', 'wasBeforeRecovery'] },
  );
  return new Map(
    items.flatMap((item) =>
      item
        ? [
            [
              item.eventId as string,
              {
                status: item.status as string,
                attempts: (item.attempts as number | undefined) ?? 0,
                recoveryId: (item.recoveryId as string | undefined) ?? null,
                was: (item.wasBeforeRecovery as string | undefined) ?? null,
              },
            ],
          ]
        : [],
    ),
  );
}

/**
 * Claim the recovery's attempt of a delivery it took up, with the lease every attempt takes.
 * `busyUntil`: the attempt of a step that died still holds its lease (it is made again after);
 * `gone`: the delivery is no longer the recovery's to send (a redelivery by hand took it).
 */
export async function claimRecoveryAttempt(
  workspace: string,
  webhookId: string,
  recoveryId: string,
  taken: TakenDelivery,
  leaseSeconds: number,
  leaseToken: string,
  nowMs = Date.now(),
): Promise<{ claimed: ClaimedDelivery } | { busyUntil: number } | { gone: true }> {
  const key = webhookDeliveryEntity.keys.delivery(workspace, webhookId, taken.eventId);
  const claim = update()
    .set('leaseUntil', nowMs + leaseSeconds * 1000)
    .set('leaseToken', leaseToken);
  const { written, refused } = await updateItem({
    TableName: tableName,
    Key: key,
    ...claim.build({
      expression:
        'recoveryId = :recovery AND #status = :pending AND nextAttempt = :attempt AND ' +
        `(attribute_not_exists(${claim.placeholder('leaseUntil')}) OR ${claim.placeholder('leaseUntil')} < :now)`,
      names: { '#status': 'status' },
      values: { ':recovery': recoveryId, ':now': nowMs, ':pending': 'pending', ':attempt': taken.attempt },
    }),
  });
  if (!written) {
    const current = refused.current;
    const ours = current?.recoveryId === recoveryId && current.status === 'pending' && current.nextAttempt === taken.attempt;
    return ours ? { busyUntil: current.leaseUntil as number } : { gone: true };
  }
  return {
    claimed: {
      workspace,
      webhookId,
      eventId: taken.eventId,
      eventType: written.eventType as WebhookEventType,
      payload: written.payload as string,
      attempt: taken.attempt,
      roundStart: taken.attempt,
      attemptLog: (written.attemptLog as AttemptRecord[] | undefined) ?? [],
      leaseToken,
      key,
    },
  };
}

/**
 * Give back what a stopped recovery took up and did not send: each as it was before (held ones back
 * in the held index), unless its attempt was made or someone else took it meanwhile.
 */
export async function giveBack(
  workspace: string,
  webhookId: string,
  recoveryId: string,
  taken: TakenDelivery[],
  nowMs = Date.now(),
): Promise<void> {
  await Promise.all(
    taken.map(async (t) => {
      const back = update().remove('recoveryId').remove('wasBeforeRecovery');
      if (t.was === 'held')
        for (const [name, value] of Object.entries(heldAttributes(workspace, webhookId, t.eventId))) back.set(name, value);
      else back.set('status', t.was);
      await updateItem({
        TableName: tableName,
        Key: webhookDeliveryEntity.keys.delivery(workspace, webhookId, t.eventId),
        ...back.build({
          expression:
            `recoveryId = :recovery AND ${back.placeholder('status')} = :pending AND attempts < :attempt AND ` +
            '(attribute_not_exists(leaseUntil) OR leaseUntil < :now)',
          values: { ':recovery': recoveryId, ':pending': 'pending', ':attempt': t.attempt, ':now': nowMs },
        }),
      });
    }),
  );
}
