/** The compressed content codec: round trips Arabic losslessly and enforces the 1 MB cap. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeContent, encodeContent, MAX_CONTENT_BYTES } from '../../lib/knowledge-bank/content-codec.ts';
import { content, paragraph } from '../support/knowledge-bank-builders.ts';

describe('knowledge-bank content codec', () => {
  it('round-trips content with Arabic text and stores it smaller than its JSON', () => {
    const blocks = Array.from({ length: 200 }, (_, i) =>
      paragraph(`b${i}`, `Step ${i}: open the settings page`, `الخطوة ${i}: افتح صفحة الإعدادات`),
    );
    const value = content(blocks, { titleEn: 'Settings', titleAr: 'الإعدادات' });
    const encoded = encodeContent(value);
    expect(encoded.ok).toBe(true);
    if (!encoded.ok) return;
    expect(encoded.bytes.byteLength).toBeLessThan(encoded.jsonBytes / 5);
    expect(decodeContent(encoded.bytes)).toEqual(value);
  });

  it('counts the cap in UTF-8 bytes: accepts exactly 1,048,576 and refuses one more', () => {
    const overhead = Buffer.byteLength(JSON.stringify({ s: '' }));
    const exact = { s: 'a'.repeat(MAX_CONTENT_BYTES - overhead) };
    expect(encodeContent(exact)).toMatchObject({ ok: true, jsonBytes: MAX_CONTENT_BYTES });
    expect(encodeContent({ s: `${exact.s}a` })).toEqual({ ok: false, jsonBytes: MAX_CONTENT_BYTES + 1 });
    // Arabic letters are two bytes each in UTF-8: 600,000 of them are over the cap.
    expect(encodeContent({ s: 'ع'.repeat(600_000) }).ok).toBe(false);
  });

  it('refuses content under the JSON cap that does not compress into one DynamoDB item', () => {
    const noise = { s: randomBytes(700_000).toString('base64').slice(0, 900_000) };
    const encoded = encodeContent(noise);
    expect(encoded.ok).toBe(false);
    expect(encoded.ok ? 0 : encoded.compressedBytes).toBeGreaterThan(380_000);
  });
});
