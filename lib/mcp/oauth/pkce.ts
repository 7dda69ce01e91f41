/** PKCE (RFC 7636), S256 only: the verifier's SHA-256, base64url, is the challenge the client sent first. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 §4.1: 43-128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** The base64url of a SHA-256: 43 characters. */
export const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
