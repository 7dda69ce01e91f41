import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CONTENT_LIMITS, decodeJson, encodeContent } from '../../lib/journeys/codec.ts';

describe('journey content codec', () => {
  it('round-trips content and stores it smaller than its JSON', () => {
    const content = {
      schema: 1,
      stages: Array.from({ length: 200 }, (_, i) => ({ id: `s${i}`, titleEn: 'Stage', microJourneyPairs: [] })),
      rows: [],
      cells: {},
    };
    const encoded = encodeContent(content);
    if (!encoded.ok) throw new Error('expected to fit');
    expect(encoded.rawBytes).toBe(Buffer.byteLength(JSON.stringify(content)));
    expect(encoded.compressed.byteLength).toBeLessThan(encoded.rawBytes / 5);
    expect(decodeJson(encoded.compressed)).toEqual(content);
  });

  it('refuses content above 1,048,576 UTF-8 bytes, counting bytes not characters', () => {
    const fits = { t: 'a'.repeat(CONTENT_LIMITS.rawBytes - 10) }; // {"t":"…"} adds 8 bytes
    expect(encodeContent(fits).ok).toBe(true);
    const arabic = { t: 'ع'.repeat(CONTENT_LIMITS.rawBytes / 2) }; // two bytes each
    expect(encodeContent(arabic)).toMatchObject({ ok: false, limit: 'rawBytes' });
  });

  it('refuses content whose compressed form alone would not fit the item', () => {
    const noise = { t: randomBytes(420 * 1024).toString('base64') }; // 573 KB of base64 noise: ~420 KB compressed
    expect(encodeContent(noise)).toMatchObject({ ok: false, limit: 'compressedBytes' });
  });
});
