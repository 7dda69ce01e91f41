import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeJson } from '../../lib/journeys/codec.ts';
import type { Diagnostic } from '../../lib/journeys/diagnostics.ts';
import { descendingIdKey, newJourneyId, storedDiagnostics } from '../../lib/journeys/record.ts';

describe('journey records', () => {
  it('makes UUIDv7 ids that sort by creation time', () => {
    const earlier = newJourneyId(1_700_000_000_000);
    const later = newJourneyId(1_700_000_000_001);
    expect(earlier).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(earlier < later).toBe(true);
  });

  it('complements version ids so newer versions sort first in ascending order (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 47 }), fc.integer({ min: 1, max: 2 ** 20 }), (ms, gap) => {
        const older = newJourneyId(ms);
        const newer = newJourneyId(ms + gap);
        expect(descendingIdKey(newer) < descendingIdKey(older)).toBe(true);
      }),
    );
    expect(descendingIdKey('0190f4a2-7c1e-7000-8000-00000000000f')).toBe('fe6f0b5d-83e1-8fff-7fff-fffffffffff0');
  });

  it('stores diagnostics compressed, at most 500, errors first', () => {
    const many: Diagnostic[] = Array.from({ length: 2000 }, (_, i) => ({
      severity: i === 1999 ? 'error' : 'warning',
      code: i === 1999 ? 'duplicate_row_id' : 'missing_translation',
      message: `titleEn is given but titleAr is missing (${i})`,
      path: `/cells/row${i}:stage/textAr`,
    }));
    const stored = storedDiagnostics(many);
    expect(stored.kept).toHaveLength(500);
    expect(stored.kept[0]?.code).toBe('duplicate_row_id');
    expect(stored.kept.at(-1)).toMatchObject({ code: 'diagnostics_truncated', message: '1501 more diagnostics were left out' });
    expect(decodeJson(stored.bytes)).toEqual(stored.kept);
    expect(stored.bytes.byteLength).toBeLessThan(stored.rawBytes / 5);
  });
});
