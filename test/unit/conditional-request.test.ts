/** If-Match and Idempotency-Key parsing, and the request fingerprint behind idempotent replays. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../lib/platform/errors.ts';
import { etagOf, idempotencyKeyOf, ifMatchPrecondition, requestFingerprint } from '../../lib/platform/http/conditional-request.ts';

describe('ifMatchPrecondition', () => {
  it('is undefined without the header, and "any version" for *', () => {
    expect(ifMatchPrecondition({})).toBeUndefined();
    expect(ifMatchPrecondition({ 'if-match': ' * ' })).toEqual({ anyVersion: true });
  });

  it('reads the ETags this API sends, a list of them, and bare versions', () => {
    expect(ifMatchPrecondition({ 'if-match': etagOf(3) })).toEqual({ anyVersion: false, versions: [3] });
    expect(ifMatchPrecondition({ 'if-match': '"3", "5",  "3"' })).toEqual({ anyVersion: false, versions: [3, 5] });
    expect(ifMatchPrecondition({ 'if-match': '12' })).toEqual({ anyVersion: false, versions: [12] });
  });

  it.each(['', 'W/"3"', '"3', '"abc"', '"1" "2"', '"-1"', '"1.5"', `"${'9'.repeat(16)}"`, Array(21).fill('"1"').join(',')])(
    'rejects %j with 400 invalid_header',
    (value) => {
      try {
        ifMatchPrecondition({ 'if-match': value });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        expect((error as ValidationError).code).toBe('invalid_header');
        expect((error as ValidationError).issues?.[0]?.path).toBe('header.If-Match');
      }
    },
  );
});

describe('idempotencyKeyOf', () => {
  it('takes 1-255 visible ASCII characters, trimmed', () => {
    expect(idempotencyKeyOf({})).toBeUndefined();
    expect(idempotencyKeyOf({ 'idempotency-key': ' 7d1e0c5e-1f0b-4b7a-9a51-3f1c2b0d9e8a ' })).toBe('7d1e0c5e-1f0b-4b7a-9a51-3f1c2b0d9e8a');
    expect(idempotencyKeyOf({ 'idempotency-key': 'k'.repeat(255) })).toHaveLength(255);
  });

  it.each(['', '   ', 'k'.repeat(256), 'with space', 'clé', 'tab\there'])('rejects %j', (value) => {
    expect(() => idempotencyKeyOf({ 'idempotency-key': value })).toThrow(ValidationError);
  });
});

describe('requestFingerprint', () => {
  it('ignores key order at every level', () => {
    expect(requestFingerprint({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: null } })).toBe(
      requestFingerprint({ b: { f: null, c: [1, { e: 3, d: 2 }] }, a: 1 }),
    );
  });

  it('changes with any value, with array order and with a field added', () => {
    const base = requestFingerprint({ title: 'x', tags: [1, 2] });
    expect(requestFingerprint({ title: 'y', tags: [1, 2] })).not.toBe(base);
    expect(requestFingerprint({ title: 'x', tags: [2, 1] })).not.toBe(base);
    expect(requestFingerprint({ title: 'x', tags: [1, 2], status: null })).not.toBe(base);
    expect(requestFingerprint({ title: 'x', tags: [1, 2] })).toBe(base);
  });

  it('is a hex SHA-256 digest, not the body', () => {
    expect(requestFingerprint({ email: 'ann@example.com' })).toMatch(/^[0-9a-f]{64}$/);
  });
});
