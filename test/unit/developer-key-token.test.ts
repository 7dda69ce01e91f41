import { describe, expect, it } from 'vitest';
import { hashToken, newKeyId, newToken, parseToken, tokenHint, tokenMatchesHash } from '../../lib/platform/auth/developer-key-token.ts';

describe('developer key tokens', () => {
  it('have a recognisable prefix, a fixed length and carry their key id', () => {
    const id = newKeyId();
    const token = newToken(id);
    expect(token).toMatch(/^cxk_[0-9A-Za-z]{50}$/);
    expect(parseToken(token)).toEqual({ keyId: id });
  });

  it('rejects a token whose checksum does not match (a typo or a forgery)', () => {
    const token = newToken(newKeyId());
    const i = 20;
    const flipped = token.slice(0, i) + (token[i] === 'a' ? 'b' : 'a') + token.slice(i + 1);
    expect(parseToken(flipped)).toBeNull();
    expect(parseToken(`${token}x`)).toBeNull();
    expect(parseToken(token.replace('cxk_', 'ghp_'))).toBeNull();
    expect(parseToken('')).toBeNull();
  });

  it('matches only the hash of the exact token', () => {
    const token = newToken(newKeyId());
    const other = newToken(newKeyId());
    expect(tokenMatchesHash(token, hashToken(token))).toBe(true);
    expect(tokenMatchesHash(other, hashToken(token))).toBe(false);
    expect(tokenMatchesHash(token, 'abcd')).toBe(false);
  });

  it('stores a hint that does not reveal the secret', () => {
    const token = newToken(newKeyId());
    const hint = tokenHint(token);
    expect(hint.startsWith(token.slice(0, 16))).toBe(true);
    expect(hint).not.toContain(token.slice(16, 48));
  });
});
