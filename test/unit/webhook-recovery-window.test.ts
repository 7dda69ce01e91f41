/** What a recovery covers and in which order (issue 40 item 2): its window, the walk in event order over sharded ranges, a taken delivery's state. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/platform/errors.ts';
import {
  DELIVERY_RETENTION_DAYS,
  firstEventIdAt,
  mergeRangePages,
  pastEventIdsAt,
  type RangePage,
  resolveWindow,
  stateOfTaken,
} from '../../lib/webhooks/recovery-window.ts';

const NOW = Date.parse('2026-03-02T08:00:00.000Z');
const DAY = 86_400_000;

function refusal(run: () => unknown): { path: string; message: string } {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues![0]!;
  }
  throw new Error('not refused');
}

describe('resolveWindow', () => {
  it('takes since inside the retention and until (default now) after it, reading event ids from a minute before since', () => {
    const window = resolveWindow({ since: '2026-03-01T08:00:00.500Z' }, NOW);
    expect(window).toEqual({
      since: '2026-03-01T08:00:00.500Z',
      until: '2026-03-02T08:00:00.000Z',
      from: firstEventIdAt(Date.parse('2026-03-01T07:59:00Z')),
      to: pastEventIdsAt(NOW),
    });
    // An event committed inside the window has an id of its second or up to a minute before (DynamoDB Local
    // rounds to the minute): all read; ids of the second after until are not.
    const idAt = (ms: number, tail: string) => `${firstEventIdAt(ms)}${tail}`;
    const read = (id: string) => id >= window.from && id < window.to;
    expect(read(idAt(Date.parse('2026-03-01T08:00:00Z'), '0'.repeat(32)))).toBe(true);
    expect(read(idAt(Date.parse('2026-03-01T07:59:00Z'), '0'.repeat(32)))).toBe(true);
    expect(read(idAt(NOW, 'z'.repeat(32)))).toBe(true);
    expect(read(idAt(Date.parse('2026-03-01T07:58:59Z'), 'z'.repeat(32)))).toBe(false);
    expect(read(idAt(NOW + 1000, '0'.repeat(32)))).toBe(false);
  });

  it('refuses a since before the retention, an until in the future or not after since, saying which', () => {
    expect(refusal(() => resolveWindow({ since: new Date(NOW - DELIVERY_RETENTION_DAYS * DAY - 1).toISOString() }, NOW))).toEqual({
      path: 'body.since',
      message: `must be inside the deliveries' 30-day retention: not before ${new Date(NOW - 30 * DAY).toISOString()}`,
    });
    expect(
      refusal(() => resolveWindow({ since: new Date(NOW - DAY).toISOString(), until: new Date(NOW + 1).toISOString() }, NOW)).path,
    ).toBe('body.until');
    expect(
      refusal(() => resolveWindow({ since: new Date(NOW - DAY).toISOString(), until: new Date(NOW - DAY).toISOString() }, NOW)).message,
    ).toBe('must be after since');
    expect(resolveWindow({ since: new Date(NOW - 30 * DAY).toISOString() }, NOW).since).toBe(new Date(NOW - 30 * DAY).toISOString());
  });
});

describe('mergeRangePages', () => {
  /** One Query page of a range after `after`: at most `read` evaluated items, of which it selects those `wanted`. */
  function pageOf(range: { eventId: string; wanted: boolean }[], after: string | null, read: number): RangePage<{ eventId: string }> {
    const rest = range.filter((item) => after === null || item.eventId > after);
    const evaluated = rest.slice(0, read);
    return {
      items: evaluated.filter((item) => item.wanted).map(({ eventId }) => ({ eventId })),
      reached: rest.length > read ? evaluated.at(-1)!.eventId : null,
    };
  }

  it('walks sharded ranges in event order, taking every selected delivery once, whatever the page sizes', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 100_000 }), { maxLength: 200 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.func(fc.boolean()),
        (ids, ranges, read, limit, wanted) => {
          const items = ids.map((n) => ({ eventId: `evt_${String(n).padStart(6, '0')}`, wanted: wanted(n) }));
          const shards = Array.from({ length: ranges }, (_, r) =>
            items.filter((_, i) => ids[i]! % ranges === r).sort((a, b) => (a.eventId < b.eventId ? -1 : 1)),
          );
          const taken: string[] = [];
          let position: string | null = null;
          for (let steps = 0; ; steps++) {
            expect(steps).toBeLessThan(10_000);
            const { items: next, next: after } = mergeRangePages(
              shards.map((shard) => pageOf(shard, position, read)),
              limit,
            );
            expect(next.length).toBeLessThanOrEqual(limit);
            taken.push(...next.map((item) => item.eventId));
            if (after === null) break;
            expect(position === null || after > position).toBe(true);
            position = after;
          }
          expect(taken).toEqual(
            items
              .filter((item) => item.wanted)
              .map((item) => item.eventId)
              .sort(),
          );
        },
      ),
    );
  });
});

describe('stateOfTaken', () => {
  const taken = { eventId: 'evt_x', attempt: 5, was: 'held' as const };
  it('sends what it has not sent, counts what a step that died had sent, and leaves what someone else took', () => {
    expect(stateOfTaken(taken, { status: 'pending', attempts: 4, recoveryId: 'r1' }, 'r1')).toBe('send');
    expect(stateOfTaken(taken, { status: 'delivered', attempts: 5, recoveryId: 'r1' }, 'r1')).toBe('delivered');
    expect(stateOfTaken(taken, { status: 'failed', attempts: 5, recoveryId: 'r1' }, 'r1')).toBe('failed');
    expect(stateOfTaken(taken, { status: 'pending', attempts: 4, recoveryId: null }, 'r1')).toBe('lost');
    expect(stateOfTaken(taken, { status: 'delivered', attempts: 6, recoveryId: 'r2' }, 'r1')).toBe('lost');
    expect(stateOfTaken(taken, null, 'r1')).toBe('lost');
  });
});
