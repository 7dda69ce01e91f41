/**
 * What a recovery (`POST /webhooks/{id}/recover`) sends, and in which order, as pure rules: the
 * window it covers, the walk through the webhook's delivery ranges in event order, and what became
 * of each delivery it took up (store/recoveries.ts and commands/run-webhook-recovery.ts do the I/O).
 *
 * Event order: a delivery's id is its event's id, which sorts by the second the change was committed,
 * then by the table stream's sequence number (events.ts `eventIdOf`). The deliveries of a webhook are
 * spread over a few ranges by a hash of that id (store/deliveries.ts), each sorted by it: a recovery
 * reads one page of each range and merges them, taking only what sorts before the first range that has
 * more to read, so what it takes is always the next deliveries in event order, wherever they live.
 */
import { ValidationError } from '../platform/errors.ts';

/** How long delivery records are kept (their TTL): a recovery's window must start inside it. */
export const DELIVERY_RETENTION_DAYS = 30;
const RETENTION_MS = DELIVERY_RETENTION_DAYS * 86_400_000;

/** A recovery stops after this many attempts in a row failed: the receiver is down again. */
export const MAX_FAILURES_IN_A_ROW = 10;

/** The states a recovery sends again; a `delivered` delivery is never sent again. */
const RECOVERABLE = ['held', 'failed', 'cancelled'] as const;
export type Recoverable = (typeof RECOVERABLE)[number];

const seconds36 = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(36)
    .padStart(7, '0');

/** The first event id of the second `ms` falls in (every id of that second sorts at or after it). */
export const firstEventIdAt = (ms: number) => `evt_${seconds36(ms)}`;
/** Sorts after every event id of the second `ms` falls in. */
export const pastEventIdsAt = (ms: number) => `evt_${seconds36(ms)}~`;

/**
 * How far before `since` the walk starts reading event ids. An event id carries the second its stream
 * record was created, rounded down ("rounded down to the closest second", AWS's StreamRecord
 * reference: https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_streams_StreamRecord.html),
 * and DynamoDB Local rounds it down to the minute; so the ids of the window's events start up to a
 * minute before it, and the walk keeps only the deliveries whose event was committed inside it (their
 * `eventAt`, the event's own `timestamp`).
 */
const EVENT_ID_MARGIN_MS = 60_000;

/**
 * Where the walk's filter starts on the events' own times: the start of `since`'s minute. A delete's
 * time is its stream record's creation time, rounded down (to the second in AWS, to the minute in
 * DynamoDB Local: the StreamRecord reference above), so a delete committed just after `since` can
 * carry a time before it. The walk takes the unsent deliveries of that minute too: sending a few the
 * window did not ask for is harmless (each once, never one delivered), missing one is not.
 */
export const eventTimesFrom = (since: string) => new Date(Math.floor(Date.parse(since) / 60_000) * 60_000).toISOString();

export interface RecoveryWindow {
  /** The window, on the time each change was committed (the event's `timestamp`). */
  since: string;
  until: string;
  /** The event ids it reads: from (inclusive) … to (exclusive). */
  from: string;
  to: string;
}

/**
 * The window a recover request asks for: `since` inside the retention, `until` (default: now) after it
 * and not in the future. 400 `invalid_body` saying which.
 */
export function resolveWindow(request: { since: string; until?: string }, nowMs = Date.now()): RecoveryWindow {
  const since = Date.parse(request.since);
  const until = request.until === undefined ? nowMs : Date.parse(request.until);
  const oldest = nowMs - RETENTION_MS;
  if (since < oldest) {
    throw new ValidationError('invalid_body', [
      {
        path: 'body.since',
        message: `must be inside the deliveries' ${DELIVERY_RETENTION_DAYS}-day retention: not before ${new Date(oldest).toISOString()}`,
      },
    ]);
  }
  if (until > nowMs) throw new ValidationError('invalid_body', [{ path: 'body.until', message: 'must not be in the future' }]);
  if (until <= since) throw new ValidationError('invalid_body', [{ path: 'body.until', message: 'must be after since' }]);
  return {
    since: new Date(since).toISOString(),
    until: new Date(until).toISOString(),
    from: firstEventIdAt(since - EVENT_ID_MARGIN_MS),
    to: pastEventIdsAt(until),
  };
}

/**
 * One page of one range, ascending: the deliveries it selected, and `reached`, the event id where the
 * Query stopped when the range has more (a page of a filtered Query can select nothing and still stop
 * early), or null when it read the range to the window's end.
 */
export interface RangePage<T extends { eventId: string }> {
  items: T[];
  reached: string | null;
}

/**
 * The next deliveries in event order from pages of every range read after the same position: at most
 * `limit`, and none past the first range that has more to read (that range may hold an earlier one).
 * `next` is where the walk goes on from (exclusive), or null when every range is read to the end.
 */
export function mergeRangePages<T extends { eventId: string }>(pages: RangePage<T>[], limit: number): { items: T[]; next: string | null } {
  const reached = pages.flatMap((page) => (page.reached === null ? [] : [page.reached])).sort();
  const bound = reached[0];
  const candidates = pages
    .flatMap((page) => page.items)
    .filter((item) => bound === undefined || item.eventId <= bound)
    .sort((a, b) => (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0));
  if (candidates.length > limit) {
    const items = candidates.slice(0, limit);
    return { items, next: items[limit - 1]!.eventId };
  }
  return { items: candidates, next: bound ?? null };
}

/** A delivery a recovery took up: which attempt it will make of it, and what it was before (to give it back). */
export interface TakenDelivery {
  eventId: string;
  attempt: number;
  was: Recoverable;
}

/** A taken delivery as the record shows it now. */
export interface TakenRecord {
  status: string;
  attempts: number;
  recoveryId: string | null;
}

/**
 * What became of a delivery the recovery took up, from its record: `send` when its attempt is still to
 * be made (never made, or the function died during it: the lease ran out), `delivered` or `failed`
 * when the recovery's attempt was recorded (a step that died before counting it), `lost` when someone
 * else took it over meanwhile (a redelivery by hand) or it expired.
 */
export function stateOfTaken(
  taken: TakenDelivery,
  record: TakenRecord | null,
  recoveryId: string,
): 'send' | 'delivered' | 'failed' | 'lost' {
  if (!record || record.recoveryId !== recoveryId) return 'lost';
  if (record.attempts >= taken.attempt) return record.status === 'delivered' ? 'delivered' : 'failed';
  return record.status === 'pending' ? 'send' : 'lost';
}
