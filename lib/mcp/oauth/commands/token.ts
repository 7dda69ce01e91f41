/**
 * POST /oauth/token: an authorization code (single-use, 2 minutes, its PKCE verifier, client and
 * redirect URI checked) or a refresh token (rotated on use; one presented again revokes the family)
 * for a derived key's tokens. The parent key is read each time: a revoked or expired parent, or a
 * suspended workspace, gets nothing. And POST /oauth/revoke (RFC 7009).
 */
import {
  credentialOf,
  FORWARDED_PROOF_PURPOSE,
  forwardedToken,
  newDerivedKeyId,
  newDerivedToken,
  sha256,
} from '../../../platform/auth/derived-key-token.ts';
import type { DerivedKey } from '../../../platform/data/derived-key-record.ts';
import { findWorkspaceAndKey } from '../../../platform/data/developer-keys.ts';
import { keyedHash } from '../../../platform/keyed-hash.ts';
import { oauthRefusal } from '../errors.ts';
import { ACCESS_TOKEN_SECONDS, type OAuthAddresses } from '../metadata.ts';
import { verifierMatches } from '../pkce.ts';
import { findConsent, spendCode } from '../store/consents.ts';
import { createDerivedKey, findDerivedKey, revokeDerivedKey, rotateDerivedKey, usedRefreshMark } from '../store/derived-keys.ts';

export interface TokenRequest {
  grant_type: string;
  client_id: string;
  code?: string | undefined;
  code_verifier?: string | undefined;
  redirect_uri?: string | undefined;
  refresh_token?: string | undefined;
  resource?: string | undefined;
}

const invalidGrant = (message: string) => oauthRefusal('invalid_grant', message);

/** The parent key as it is now: usable, or the grant is refused. */
async function assertParentUsable(workspace: string, parentKeyId: string): Promise<void> {
  const { workspace: ws, key } = await findWorkspaceAndKey(workspace, parentKeyId);
  const parent = key?.key;
  if (!parent || parent.revokedAt || (parent.expiresAt && Date.parse(parent.expiresAt) <= Date.now())) {
    throw invalidGrant('The Developer key this was granted from is revoked, expired or gone');
  }
  if (ws && ws.status !== 'active') throw invalidGrant('The workspace is suspended');
}

async function issue(parentKeyId: string, derivedKeyId: string) {
  const access = newDerivedToken('access', parentKeyId, derivedKeyId);
  const refresh = newDerivedToken('refresh', parentKeyId, derivedKeyId);
  const accessHash = sha256(forwardedToken(access, await keyedHash(FORWARDED_PROOF_PURPOSE, access)));
  return {
    access,
    refresh,
    accessHash,
    refreshHash: sha256(refresh),
    accessExpiresAt: new Date(Date.now() + ACCESS_TOKEN_SECONDS * 1000).toISOString(),
  };
}

function answer(tokens: { access: string; refresh: string }, derived: Pick<DerivedKey, 'permissions'>) {
  return {
    access_token: tokens.access,
    token_type: 'Bearer' as const,
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: tokens.refresh,
    scope: derived.permissions.join(' '),
  };
}

async function exchangeCode(workspace: string, at: OAuthAddresses, request: TokenRequest) {
  const code = request.code ?? '';
  const [consentId] = code.split('.');
  const consent = /^[0-9a-f-]{36}$/.test(consentId ?? '') ? await findConsent(workspace, consentId!) : null;
  if (!consent?.codeHash || consent.codeHash !== sha256(code)) throw invalidGrant('The authorization code is not valid');
  if (consent.usedAt) {
    // A code used twice: whoever holds it now may not be who was given it (RFC 6749 §4.1.2).
    if (consent.derivedKeyId) await revokeDerivedKey(workspace, consent.parentKeyId, consent.derivedKeyId, new Date().toISOString());
    throw invalidGrant('The authorization code was used already: the tokens issued for it are revoked');
  }
  if (Date.parse(consent.codeExpiresAt!) < Date.now()) throw invalidGrant('The authorization code has expired');
  if (request.client_id !== consent.clientId) throw invalidGrant('The authorization code was issued to another client');
  if (request.redirect_uri !== consent.redirectUri) throw invalidGrant('redirect_uri differs from the authorization request’s');
  if (!verifierMatches(request.code_verifier ?? '', consent.codeChallenge))
    throw invalidGrant('code_verifier does not match the code_challenge');
  if (request.resource !== undefined && request.resource !== at.resource)
    throw oauthRefusal('invalid_target', `resource must be ${at.resource}`);
  await assertParentUsable(workspace, consent.parentKeyId);
  const id = newDerivedKeyId();
  const tokens = await issue(consent.parentKeyId, id);
  const now = new Date();
  const derived: DerivedKey = {
    id,
    parentKeyId: consent.parentKeyId,
    workspace,
    clientId: consent.clientId,
    clientName: consent.clientName,
    permissions: consent.granted!,
    resource: consent.resource,
    accessHash: tokens.accessHash,
    accessExpiresAt: tokens.accessExpiresAt,
    refreshHash: tokens.refreshHash,
    refreshExpiresAt: new Date(now.getTime() + consent.lifetimeDays! * 86_400_000).toISOString(),
    usedRefreshHashes: [],
    createdAt: now.toISOString(),
    refreshedAt: null,
    revokedAt: null,
  };
  if (!(await createDerivedKey(derived, spendCode(consent, id, now.toISOString())))) {
    throw invalidGrant('The authorization code was used already');
  }
  return answer(tokens, derived);
}

async function refresh(workspace: string, request: TokenRequest) {
  const token = request.refresh_token ?? '';
  const credential = credentialOf(token);
  if (credential?.kind !== 'refresh') throw invalidGrant('The refresh token is not valid');
  const derived = await findDerivedKey(workspace, credential.parentKeyId, credential.derivedKeyId);
  if (!derived || derived.clientId !== request.client_id) throw invalidGrant('The refresh token is not valid');
  if (derived.revokedAt) throw invalidGrant('The refresh token has been revoked');
  const presented = sha256(token);
  if (presented !== derived.refreshHash) {
    if (derived.usedRefreshHashes.includes(usedRefreshMark(presented))) {
      // A rotated-away refresh token came back: someone else holds a copy. The whole family ends (RFC 9700 §4.14.2).
      await revokeDerivedKey(workspace, derived.parentKeyId, derived.id, new Date().toISOString());
      throw invalidGrant('The refresh token was used already: every token of this grant is revoked');
    }
    throw invalidGrant('The refresh token is not valid');
  }
  if (Date.parse(derived.refreshExpiresAt) <= Date.now()) throw invalidGrant('The refresh token has expired');
  await assertParentUsable(workspace, derived.parentKeyId);
  const tokens = await issue(derived.parentKeyId, derived.id);
  const rotated = await rotateDerivedKey(derived, { ...tokens, now: new Date().toISOString() });
  if (!rotated) throw invalidGrant('The refresh token was used already');
  return answer(tokens, derived);
}

export async function exchangeOAuthToken(workspace: string, at: OAuthAddresses, request: TokenRequest) {
  if (request.grant_type === 'authorization_code') return exchangeCode(workspace, at, request);
  if (request.grant_type === 'refresh_token') return refresh(workspace, request);
  throw oauthRefusal('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
}

/** RFC 7009: the grant an access or refresh token belongs to is revoked; an unknown token is answered alike. */
export async function revokeOAuthToken(workspace: string, token: string): Promise<void> {
  const credential = credentialOf(token);
  if (credential?.kind !== 'access' && credential?.kind !== 'refresh') return;
  const derived = await findDerivedKey(workspace, credential.parentKeyId, credential.derivedKeyId);
  if (!derived || derived.revokedAt) return;
  const hash =
    credential.kind === 'refresh' ? sha256(token) : sha256(forwardedToken(token, await keyedHash(FORWARDED_PROOF_PURPOSE, token)));
  const owns =
    credential.kind === 'refresh'
      ? hash === derived.refreshHash || derived.usedRefreshHashes.includes(usedRefreshMark(hash))
      : hash === derived.accessHash;
  if (owns) await revokeDerivedKey(workspace, derived.parentKeyId, derived.id, new Date().toISOString());
}
