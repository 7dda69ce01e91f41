/** If-Match and Idempotency-Key parsing, and the request fingerprint behind idempotent replays. */
import { describe, expect, it } from 'vitest';
import { ApiError, ValidationError } from '../../lib/platform/errors.ts';
import {
  declaredPrecondition,
  etagOf,
  idempotencyKeyOf,
  ifMatchPrecondition,
  ifMatchRequired,
  requestFingerprint,
} from '../../lib/platform/http/conditional-request.ts';

describe('ifMatchPrecondition', () => {
  it('is undefined without the header, and "any version" for *', () => {
    expect(ifMatchPrecondition({})).toBeUndefined();
    expect(ifMatchPrecondition({ 'if-match': ' * ' })).toEqual({ anyVersion: true });
  });

  it('reads the ETags this API sends and a list of them', () => {
    expect(ifMatchPrecondition({ 'if-match': etagOf(3) })).toEqual({ anyVersion: false, versions: [3] });
    expect(ifMatchPrecondition({ 'if-match': '"3", "5",  "3"' })).toEqual({ anyVersion: false, versions: [3, 5] });
  });

  it.each([
    '',
    '1',
    '12',
    '"1", 2',
    'W/"3"',
    '"3',
    '"abc"',
    '"1" "2"',
    '"-1"',
    '"1.5"',
    `"${'9'.repeat(16)}"`,
    Array(21).fill('"1"').join(','),
  ])('rejects %j with 400 invalid_header', (value) => {
    try {
      ifMatchPrecondition({ 'if-match': value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).code).toBe('invalid_header');
      expect((error as ValidationError).issues?.[0]?.path).toBe('header.If-Match');
    }
  });
});

describe('declaredPrecondition', () => {
  const optional = { description: 'optional' };
  const required = { description: 'required', required: true };
  const versionRequired = { description: 'a version', required: true, anyVersion: false as const };
  const codeOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return `${(error as ApiError).status} ${(error as ApiError).code}`;
    }
    return 'accepted';
  };

  it('reads nothing for a route that declares no If-Match, whatever was sent', () => {
    expect(declaredPrecondition(undefined, { 'if-match': 'not-an-etag' })).toBeUndefined();
  });

  it('passes an optional one through, absent or present', () => {
    expect(declaredPrecondition(optional, {})).toBeUndefined();
    expect(declaredPrecondition(optional, { 'if-match': '"2"' })).toEqual({ anyVersion: false, versions: [2] });
  });

  it('answers a missing required one with 400 if_match_required, the same message on every route', () => {
    const messages = [required, versionRequired].map((declaration) => {
      try {
        declaredPrecondition(declaration, {});
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect(codeOf(() => declaredPrecondition(declaration, {}))).toBe('400 if_match_required');
        return (error as ApiError).message;
      }
      return expect.unreachable();
    });
    expect(new Set(messages).size).toBe(1);
  });

  it('takes * where the route allows it, and refuses it where the write must name a version', () => {
    expect(declaredPrecondition(required, { 'if-match': '*' })).toEqual({ anyVersion: true });
    expect(codeOf(() => declaredPrecondition(versionRequired, { 'if-match': '*' }))).toBe('400 if_match_required');
    expect(declaredPrecondition(versionRequired, { 'if-match': '"1", "4"' })).toEqual({ anyVersion: false, versions: [1, 4] });
  });

  it('leaves a missing one to the operation where the route says its record answers first, with the same answer', () => {
    const afterRead = { ...required, missingAfterRead: true as const };
    expect(declaredPrecondition(afterRead, {})).toBeUndefined();
    expect(codeOf(() => declaredPrecondition(afterRead, { 'if-match': '3' }))).toBe('400 invalid_header');
    expect(codeOf(() => declaredPrecondition(required, {}))).toBe(`${ifMatchRequired().status} ${ifMatchRequired().code}`);
  });

  it('refuses a malformed one with 400 invalid_header before asking whether it was required', () => {
    for (const declaration of [optional, required, versionRequired]) {
      expect(codeOf(() => declaredPrecondition(declaration, { 'if-match': '3' }))).toBe('400 invalid_header');
    }
  });
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
