/**
 * POST /oauth/register (RFC 7591): a public client, its redirect URIs checked, given an id.
 * Registration is open to anyone, so each source address may register a few clients per window
 * (config.oauthRegistrationsPerWindow), counted once the request is valid and before anything is written.
 */
import { randomUUID } from 'node:crypto';
import { config } from '../../../platform/config.ts';
import { recordClientRegistration } from '../../../platform/data/developer-keys.ts';
import { RateLimitedError } from '../../../platform/errors.ts';
import { acceptableRedirectUri } from '../clients.ts';
import { oauthRefusal } from '../errors.ts';
import { putClient } from '../store/clients.ts';

export interface Registration {
  redirect_uris: string[];
  client_name?: string;
  token_endpoint_auth_method?: string;
  grant_types?: string[];
  response_types?: string[];
}

export async function registerOAuthClient(workspace: string, request: Registration, sourceIp: string) {
  const bad = request.redirect_uris.find((uri) => !acceptableRedirectUri(uri));
  if (bad !== undefined) throw oauthRefusal('invalid_redirect_uri', `Not an https (or loopback http) redirect URI: ${bad.slice(0, 200)}`);
  if (request.token_endpoint_auth_method && request.token_endpoint_auth_method !== 'none') {
    throw oauthRefusal('invalid_client_metadata', 'Only public clients are registered: token_endpoint_auth_method must be "none"');
  }
  const grants = request.grant_types ?? ['authorization_code', 'refresh_token'];
  if (grants.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token')) {
    throw oauthRefusal('invalid_client_metadata', 'grant_types may hold authorization_code and refresh_token only');
  }
  const now = new Date();
  const windowSeconds = config.rateLimitWindowSeconds();
  const window = Math.floor(now.getTime() / 1000 / windowSeconds);
  if ((await recordClientRegistration(sourceIp, window, windowSeconds)) > config.oauthRegistrationsPerWindow()) {
    throw new RateLimitedError(Math.max(1, (window + 1) * windowSeconds - Math.floor(now.getTime() / 1000)));
  }
  const client = {
    clientId: randomUUID(),
    clientName: request.client_name?.trim() || new URL(request.redirect_uris[0]!).host,
    redirectUris: request.redirect_uris,
    createdAt: now.toISOString(),
  };
  await putClient(workspace, client);
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none' as const,
    grant_types: grants,
    response_types: ['code'],
  };
}
