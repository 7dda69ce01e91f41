/**
 * The tokens of a derived key: a narrower, expiring child of a Developer key that an OAuth client
 * holds for the MCP server (docs/security.md, "Derived keys"). Each names its parent key and its own
 * id, so one read finds both, and ends in a CRC32 checksum like a Developer key, so a typo or a
 * truncated token is refused without a database call:
 *
 *   cxa_<parent id 12><derived id 12><secret 32><checksum 6>   the access token the client holds
 *   cxr_<parent id 12><derived id 12><secret 32><checksum 6>   its refresh token
 *   cxf_<parent id 12><derived id 12><proof 43>                 what the MCP server forwards to the API
 *
 * The access token is bound to the MCP resource: the API refuses it outright (401), and accepts only
 * the forwarded form, whose proof is a keyed hash of the access token under the server secret
 * (lib/platform/keyed-hash.ts) that only the MCP server and the token endpoint hold. The derived key
 * stores the SHA-256 of that forwarded form (and of the refresh token), never a token.
 */
import { createHash } from 'node:crypto';
import { checksum, parseToken, randomBase62 } from './developer-key-token.ts';

const ID = '[0-9A-Za-z]{12}';
const ISSUED = new RegExp(`^(cxa|cxr)_(${ID})(${ID})([0-9A-Za-z]{32})([0-9A-Za-z]{6})$`);
const FORWARDED = new RegExp(`^cxf_(${ID})(${ID})([A-Za-z0-9_-]{43})$`);

/** The purpose label of the keyed hash that turns an access token into its forwarded form. */
export const FORWARDED_PROOF_PURPOSE = 'mcp-access-token';

/** What a bearer token is, from its shape alone (no database call); null when it is none of them. */
export type Credential =
  | { kind: 'developer-key'; keyId: string }
  | { kind: 'access' | 'refresh' | 'forwarded'; parentKeyId: string; derivedKeyId: string };

export function credentialOf(token: string): Credential | null {
  if (token.startsWith('cxk_')) {
    const parsed = parseToken(token);
    return parsed ? { kind: 'developer-key', keyId: parsed.keyId } : null;
  }
  const issued = ISSUED.exec(token);
  if (issued) {
    const [, prefix, parentKeyId, derivedKeyId, secret, sum] = issued as unknown as [string, string, string, string, string, string];
    if (checksum(`${prefix}_${parentKeyId}${derivedKeyId}${secret}`) !== sum) return null;
    return { kind: prefix === 'cxa' ? 'access' : 'refresh', parentKeyId, derivedKeyId };
  }
  const forwarded = FORWARDED.exec(token);
  if (forwarded) return { kind: 'forwarded', parentKeyId: forwarded[1]!, derivedKeyId: forwarded[2]! };
  return null;
}

/** A fresh access (`cxa_`) or refresh (`cxr_`) token of derived key `derivedKeyId` under `parentKeyId`. */
export function newDerivedToken(kind: 'access' | 'refresh', parentKeyId: string, derivedKeyId: string): string {
  const body = `${kind === 'access' ? 'cxa' : 'cxr'}_${parentKeyId}${derivedKeyId}${randomBase62(32)}`;
  return body + checksum(body);
}

export function newDerivedKeyId(): string {
  return randomBase62(12);
}

/** The forwarded form of an access token, given its proof (keyedHash(FORWARDED_PROOF_PURPOSE, token)). */
export function forwardedToken(accessToken: string, proof: string): string {
  return `cxf_${accessToken.slice(4, 28)}${proof}`;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
