/** The arithmetic of a webhook's rate budget (issue 40 item 4): shards, shares, and when a try sent back comes again. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_DELIVERIES_PER_SECOND,
  SHARD_GRANTS_PER_SECOND,
  secondOf,
  shardsFor,
  shareOf,
  verdictOf,
} from '../../lib/webhooks/rate-budget.ts';

const rate = fc.integer({ min: 1, max: MAX_DELIVERIES_PER_SECOND });

describe('shards and shares', () => {
  it('splits 1,000 a second over 4 slot items of 250, and a small rate over one', () => {
    expect(shardsFor(1000)).toBe(4);
    expect([0, 1, 2, 3].map((s) => shareOf(1000, s))).toEqual([250, 250, 250, 250]);
    expect(shardsFor(10)).toBe(1);
    expect(shareOf(10, 0)).toBe(10);
    expect([0, 1].map((s) => shareOf(251, s))).toEqual([126, 125]);
  });

  it('grants exactly the rate a second, no shard over its share of a partition', () => {
    fc.assert(
      fc.property(rate, (r) => {
        const shares = Array.from({ length: shardsFor(r) }, (_, s) => shareOf(r, s));
        expect(shares.reduce((a, b) => a + b, 0)).toBe(r);
        for (const share of shares) {
          expect(share).toBeGreaterThanOrEqual(1);
          expect(share).toBeLessThanOrEqual(SHARD_GRANTS_PER_SECOND);
        }
      }),
    );
  });
});

describe('verdictOf', () => {
  it('lets the first `share` tries of a second go, and sends the rest to the seconds their turn comes in', () => {
    const second = secondOf(Date.parse('2026-03-02T08:00:00.250Z'));
    expect(verdictOf(10, 0, second, 10, () => 0)).toEqual({ go: true });
    expect(verdictOf(10, 0, second, 11, () => 0)).toEqual({ go: false, retryAtMs: (second + 1) * 1000 });
    expect(verdictOf(10, 0, second, 20, () => 0.5)).toEqual({ go: false, retryAtMs: (second + 1) * 1000 + 500 });
    expect(verdictOf(10, 0, second, 21, () => 0)).toEqual({ go: false, retryAtMs: (second + 2) * 1000 });
  });

  it('never lets more than the share of a slot go, and sends back no more to one later second than it grants', () => {
    fc.assert(
      fc.property(rate, fc.integer({ min: 1, max: 600 }), (r, tries) => {
        const shard = 0;
        const share = shareOf(r, shard);
        const comeBack = new Map<number, number>();
        let went = 0;
        for (let taken = 1; taken <= tries; taken++) {
          const verdict = verdictOf(r, shard, 100, taken, () => 0.999);
          if (verdict.go) went++;
          else {
            const second = Math.floor(verdict.retryAtMs / 1000);
            expect(second).toBeGreaterThan(100);
            comeBack.set(second, (comeBack.get(second) ?? 0) + 1);
          }
        }
        expect(went).toBe(Math.min(tries, share));
        for (const count of comeBack.values()) expect(count).toBeLessThanOrEqual(share);
      }),
      { numRuns: 50 },
    );
  });
});
