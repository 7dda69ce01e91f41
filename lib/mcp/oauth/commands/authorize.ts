/**
 * The consent page (GET /oauth/authorize) and its form (POST /oauth/authorize), two steps:
 *   1. the page names the client and asks for a Developer key; its form carries the request and a
 *      CSRF token bound to it (a keyed hash of the request and its expiry: nothing is stored yet);
 *   2. once the key is proven (its secret, not revoked or expired, the workspace active; failures
 *      brake the source address as the API's do), a consent is stored (the key's id, never the key)
 *      with a random CSRF token of its own, and the page lists the requested permissions the key
 *      holds and a lifetime; Allow makes the consent a single-use code and sends the person back to
 *      the client with it, Deny sends them back with `access_denied`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { credentialOf, sha256 } from '../../../platform/auth/derived-key-token.ts';
import { config } from '../../../platform/config.ts';
import { findWorkspaceAndKey, holdsSecret, recordFailedAuthentication } from '../../../platform/data/developer-keys.ts';
import { RateLimitedError } from '../../../platform/errors.ts';
import { keyedHash } from '../../../platform/keyed-hash.ts';
import type { Permission } from '../../../platform/permissions.ts';
import {
  AUTHORIZATION_PARAMS,
  type AuthorizationParams,
  type CheckedRequest,
  checkAuthorizationRequest,
  RedirectWithError,
  redirectTo,
} from '../authorization-request.ts';
import { consentPageHeaders, consentStepPage, keyStepPage, type PageLanguage } from '../consent-page.ts';
import { oauthRefusal } from '../errors.ts';
import { AUTHORIZATION_CODE_SECONDS, CONSENT_SECONDS, LIFETIME_DAYS, type OAuthAddresses } from '../metadata.ts';
import { allowConsent, type Consent, deleteConsent, findConsent, putConsent } from '../store/consents.ts';

export type AuthorizeAnswer = { page: string; status: number; headers: Record<string, string> } | { redirect: string };

const KEY_STEP_PURPOSE = 'oauth-consent-form';

/** The CSRF token of step one: the request's parameters and the form's expiry, keyed with the server secret. */
function keyStepToken(workspace: string, params: AuthorizationParams, expires: string): Promise<string> {
  const canonical = [workspace, expires, ...AUTHORIZATION_PARAMS.map((name) => `${name}=${params[name] ?? ''}`)].join('\n');
  return keyedHash(KEY_STEP_PURPOSE, canonical);
}

function returnsTo(redirectUri: string): string {
  return new URL(redirectUri).host;
}

async function keyStep(
  workspace: string,
  request: CheckedRequest,
  language: PageLanguage,
  status = 200,
  error?: string,
): Promise<AuthorizeAnswer> {
  const expires = String(Math.floor(Date.now() / 1000) + CONSENT_SECONDS);
  const params = request.params;
  const fields = Object.fromEntries(AUTHORIZATION_PARAMS.flatMap((name) => (params[name] === undefined ? [] : [[name, params[name]!]])));
  const switchQuery = new URLSearchParams({ ...fields, lang: language === 'en' ? 'ar' : 'en' });
  return {
    status,
    headers: consentPageHeaders(new URL(params.redirect_uri).origin),
    page: keyStepPage({
      language,
      clientName: request.client.clientName,
      returnsTo: returnsTo(params.redirect_uri),
      fields: { ...fields, csrf: await keyStepToken(workspace, params, expires), expires },
      switchHref: `authorize?${switchQuery}`,
      error,
    }),
  };
}

/** GET /oauth/authorize: the request checked, the page's first step. */
export async function showConsentPage(workspace: string, at: OAuthAddresses, params: AuthorizationParams, language: PageLanguage) {
  try {
    return await keyStep(workspace, await checkAuthorizationRequest(workspace, at, params), language);
  } catch (error) {
    if (error instanceof RedirectWithError) return { redirect: error.location };
    throw error;
  }
}

const WRONG_KEY = { en: 'That is not a valid Developer key of this workspace.', ar: 'هذا ليس مفتاح مطوّر صالحًا لمساحة العمل هذه.' };

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? undefined : value);

/** POST /oauth/authorize, step `key`: the key proven, a consent stored, the permissions offered. */
async function submitKey(
  workspace: string,
  at: OAuthAddresses,
  form: Record<string, string | string[] | undefined>,
  language: PageLanguage,
  sourceIp: string,
): Promise<AuthorizeAnswer> {
  const params = Object.fromEntries(AUTHORIZATION_PARAMS.map((name) => [name, single(form[name])])) as unknown as AuthorizationParams;
  const expires = single(form.expires) ?? '';
  const csrf = single(form.csrf) ?? '';
  if (!/^\d{10}$/.test(expires) || Number(expires) * 1000 < Date.now() || csrf !== (await keyStepToken(workspace, params, expires))) {
    throw oauthRefusal('invalid_request', 'The consent form is stale or was not ours: start again from the client');
  }
  const request = await checkAuthorizationRequest(workspace, at, params);
  const token = (single(form.key) ?? '').trim();
  const credential = credentialOf(token);
  const nowMs = Date.now();
  const found = credential?.kind === 'developer-key' ? await findWorkspaceAndKey(workspace, credential.keyId) : null;
  const key = found?.key && holdsSecret(found.key, token) ? found.key.key : null;
  const usable =
    key && !key.revokedAt && !(key.expiresAt && Date.parse(key.expiresAt) <= nowMs) && (found?.workspace?.status ?? 'active') === 'active';
  if (!usable) {
    // As the API's key check: a source that keeps failing is braked, never a key's holder.
    const windowSeconds = config.rateLimitWindowSeconds();
    const window = Math.floor(nowMs / 1000 / windowSeconds);
    if ((await recordFailedAuthentication(sourceIp, window)) > config.authFailuresPerWindow()) {
      throw new RateLimitedError(Math.max(1, (window + 1) * windowSeconds - Math.floor(nowMs / 1000)));
    }
    return keyStep(workspace, request, language, 401, WRONG_KEY[language]);
  }
  const csrfToken = randomBytes(24).toString('base64url');
  const consent: Consent = {
    id: randomUUID(),
    workspace,
    csrfHash: sha256(csrfToken),
    parentKeyId: key!.id,
    offered: request.requested.filter((permission) => key!.permissions.includes(permission)),
    clientId: request.client.clientId,
    clientName: request.client.clientName,
    redirectUri: params.redirect_uri,
    codeChallenge: params.code_challenge,
    resource: params.resource,
    state: params.state ?? null,
    expiresAt: new Date(nowMs + CONSENT_SECONDS * 1000).toISOString(),
  };
  await putConsent(consent);
  return {
    status: 200,
    headers: consentPageHeaders(new URL(params.redirect_uri).origin),
    page: consentStepPage({
      language,
      clientName: consent.clientName,
      returnsTo: returnsTo(consent.redirectUri),
      fields: { request: consent.id, csrf: csrfToken },
      permissions: consent.offered,
    }),
  };
}

/** POST /oauth/authorize, step `consent`: Allow (a code) or Deny, once. */
async function submitConsent(
  workspace: string,
  at: OAuthAddresses,
  form: Record<string, string | string[] | undefined>,
): Promise<AuthorizeAnswer> {
  const id = single(form.request) ?? '';
  const consent = /^[0-9a-f-]{36}$/.test(id) ? await findConsent(workspace, id) : null;
  const csrf = single(form.csrf) ?? '';
  if (!consent || consent.csrfHash === undefined || consent.csrfHash !== sha256(csrf) || Date.parse(consent.expiresAt) < Date.now()) {
    throw oauthRefusal('invalid_request', 'The consent form is stale, answered already or was not ours: start again from the client');
  }
  const back = (fields: Record<string, string | undefined>) => ({
    redirect: redirectTo(consent.redirectUri, at, { ...fields, state: consent.state ?? undefined }),
  });
  if (single(form.decision) !== 'allow') {
    await deleteConsent(consent);
    return back({ error: 'access_denied', error_description: 'The person denied the request' });
  }
  const checked = [form.permission ?? []].flat();
  const granted = consent.offered.filter((permission) => checked.includes(permission)) as Permission[];
  const lifetimeDays = Number(single(form.lifetime));
  if (granted.length === 0) throw oauthRefusal('invalid_request', 'Check at least one permission, or deny');
  if (!(LIFETIME_DAYS as readonly number[]).includes(lifetimeDays))
    throw oauthRefusal('invalid_request', `lifetime must be one of ${LIFETIME_DAYS.join(', ')} days`);
  const secret = randomBytes(32).toString('base64url');
  const code = `${consent.id}.${secret}`;
  const allowed = await allowConsent(consent, {
    codeHash: sha256(code),
    granted,
    lifetimeDays,
    codeExpiresAt: new Date(Date.now() + AUTHORIZATION_CODE_SECONDS * 1000).toISOString(),
  });
  if (!allowed) throw oauthRefusal('invalid_request', 'This consent was answered already');
  return back({ code });
}

export async function submitConsentForm(
  workspace: string,
  at: OAuthAddresses,
  form: Record<string, string | string[] | undefined>,
  language: PageLanguage,
  sourceIp: string,
): Promise<AuthorizeAnswer> {
  try {
    if (single(form.step) === 'key') return await submitKey(workspace, at, form, language, sourceIp);
    if (single(form.step) === 'consent') return await submitConsent(workspace, at, form);
    throw oauthRefusal('invalid_request', 'step must be "key" or "consent"');
  } catch (error) {
    if (error instanceof RedirectWithError) return { redirect: error.location };
    throw error;
  }
}
