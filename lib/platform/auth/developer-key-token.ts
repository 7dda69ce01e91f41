/**
 * Developer key tokens: `cxk_` + 12-character key id + 32-character secret + 6-character CRC32
 * checksum, all base62. The fixed prefix and the checksum let secret scanners recognise a leaked
 * key (as GitHub's `ghp_` tokens do) and let us reject typos without touching the database.
 * Only a SHA-256 hash of the whole token is stored.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

const TOKEN_PREFIX = 'cxk_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 12;
const SECRET_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const TOKEN_PATTERN = new RegExp(
  `^${TOKEN_PREFIX}([0-9A-Za-z]{${ID_LENGTH}})([0-9A-Za-z]{${SECRET_LENGTH}})([0-9A-Za-z]{${CHECKSUM_LENGTH}})$`,
);

/** `length` base62 characters from the CSPRNG (a derived key's id and secret too, derived-key-token.ts). */
export function randomBase62(length: number): string {
  let out = '';
  // randomInt draws uniformly (no modulo bias) from the CSPRNG.
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** The 6-character base62 CRC32 checksum that ends a Developer key's token (and a derived key's). */
export function checksum(body: string): string {
  let n = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function newKeyId(): string {
  return randomBase62(ID_LENGTH);
}

/** A fresh token for key `id`: shown to the operator once, never stored. */
export function newToken(id: string): string {
  const body = `${TOKEN_PREFIX}${id}${randomBase62(SECRET_LENGTH)}`;
  return body + checksum(body);
}

/** The key id of a well-formed token with a valid checksum, else null. */
export function parseToken(token: string): { keyId: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, keyId, secret, sum] = match as unknown as [string, string, string, string];
  if (checksum(`${TOKEN_PREFIX}${keyId}${secret}`) !== sum) return null;
  return { keyId };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatchesHash(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** What `cxctl key list` shows instead of the secret. */
export function tokenHint(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length + ID_LENGTH)}…${token.slice(-4)}`;
}
