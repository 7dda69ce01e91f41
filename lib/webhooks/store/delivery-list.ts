/**
 * A webhook's deliveries as the API lists them, newest first. They are spread over a few ranges
 * (entities.ts `webhookDeliveryEntity.keys.ranges`), each sorted by event id, so a page is one parallel round of one Query per range, merged by event id: the same order, the
 * same offsets and the same cursors as a single range gave. A cursor is the last delivery's key; the
 * next page reads, in every range, the deliveries older than its event id.
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { webhookDeliveryEntity } from '../entities.ts';
import type { WebhookEventType } from '../events.ts';
import type { AttemptRecord, Delivery, DeliveryOutcome } from './deliveries.ts';

const LIST_ATTRIBUTES = [
  'eventId',
  'eventType',
  'status',
  'attempts',
  'attemptLog',
  'createdAt',
  'lastAttemptAt',
  'nextAttemptAt',
  'statusReason',
];

function toDelivery(item: Record<string, unknown>): Delivery {
  const log = (item.attemptLog as AttemptRecord[] | undefined) ?? [];
  const last = log.at(-1);
  const outcome = item.status as DeliveryOutcome;
  return {
    id: item.eventId as string,
    eventId: item.eventId as string,
    eventType: item.eventType as WebhookEventType,
    outcome,
    attempt: (item.attempts as number | undefined) ?? 0,
    responseStatus: last?.responseStatus ?? null,
    durationMs: last?.durationMs ?? null,
    error: (item.statusReason as string | undefined) ?? (outcome === 'delivered' ? null : (last?.error ?? null)),
    createdAt: item.createdAt as string,
    lastAttemptAt: (item.lastAttemptAt as string | undefined) ?? null,
    nextAttemptAt: outcome === 'pending' || outcome === 'retrying' ? ((item.nextAttemptAt as string | undefined) ?? null) : null,
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

/** Items asked of one Query page while skipping to an offset. */
const MAX_ITEMS_PER_QUERY = 1000;

/** The newest `wanted` deliveries of one range, older than `before` (an event id) when given. */
async function newestOf(
  workspace: string,
  range: { prefix: string; at: (eventId: string) => string },
  wanted: number,
  before: string | undefined,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  // Nothing in this range sorts before the cursor's event id (DynamoDB refuses a BETWEEN whose bounds cross).
  if (before !== undefined && range.at(before) < range.prefix) return items;
  let cursor: Record<string, unknown> | undefined;
  do {
    const result = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        // BETWEEN is inclusive: the cursor's own delivery may come back, and is dropped below.
        KeyConditionExpression: before ? 'pk = :pk AND sk BETWEEN :range AND :before' : 'pk = :pk AND begins_with(sk, :range)',
        ExpressionAttributeValues: {
          ':pk': workspacePk(workspace),
          ':range': range.prefix,
          ...(before ? { ':before': range.at(before) } : {}),
        },
        ProjectionExpression: LIST_ATTRIBUTES.map((_, i) => `#a${i}`).join(', '),
        ExpressionAttributeNames: Object.fromEntries(LIST_ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
        ScanIndexForward: false,
        // DynamoDB takes a Limit of at most 2^31-1, and offset + limit can pass it; a page stops at 1 MB anyway.
        Limit: Math.min(wanted + 1 - items.length, MAX_ITEMS_PER_QUERY),
        ExclusiveStartKey: cursor,
      }),
    );
    items.push(...(result.Items ?? []).filter((item) => before === undefined || (item.eventId as string) < before));
    cursor = result.LastEvaluatedKey;
  } while (cursor && items.length < wanted);
  return items.slice(0, wanted);
}

/**
 * A page of a webhook's deliveries, newest first: by offset (reading the deliveries before it in
 * every range), or from a cursor's key (`after`), reading only a page from each range.
 */
export async function listDeliveries(
  workspace: string,
  webhookId: string,
  page: PageStart,
): Promise<{ deliveries: Delivery[]; hasMore: boolean; lastKey: PageKey | undefined; returned: number }> {
  const prefix = webhookDeliveryEntity.keys.prefix(webhookId);
  if (page.after && (page.after.pk !== workspacePk(workspace) || !String(page.after.sk).startsWith(prefix))) {
    throw new Error("A cursor for deliveries named a key outside the webhook's deliveries");
  }
  const before = page.after ? String(page.after.sk).split('#').at(-1) : undefined;
  const skip = page.after ? 0 : page.offset;
  const wanted = skip + page.limit + 1;
  const ranges = await Promise.all(webhookDeliveryEntity.keys.ranges(webhookId).map((range) => newestOf(workspace, range, wanted, before)));
  const items = ranges.flat().sort((a, b) => ((a.eventId as string) < (b.eventId as string) ? 1 : -1));
  const window = items.slice(skip, skip + page.limit);
  const last = window.at(-1);
  return {
    deliveries: window.map(toDelivery),
    hasMore: items.length > skip + page.limit,
    lastKey: last ? webhookDeliveryEntity.keys.delivery(workspace, webhookId, last.eventId as string) : undefined,
    returned: window.length,
  };
}
