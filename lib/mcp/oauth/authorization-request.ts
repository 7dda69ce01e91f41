/**
 * An authorization request (RFC 6749 §4.1.1 with PKCE and RFC 8707), checked in the standard's
 * order: the client and its redirect URI first (an error there is shown to the person, never sent to
 * an address nobody vouched for), then everything else, whose errors go back to the client's
 * redirect URI with `error`, `state` and `iss` (RFC 9207).
 */
import { isPermission, PERMISSIONS, type Permission } from '../../platform/permissions.ts';
import { type OAuthClient, resolveClient } from './clients.ts';
import { oauthRefusal } from './errors.ts';
import type { OAuthAddresses } from './metadata.ts';
import { CHALLENGE } from './pkce.ts';

export interface AuthorizationParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  code_challenge_method: string;
  resource: string;
  scope?: string | undefined;
  state?: string | undefined;
}

export const AUTHORIZATION_PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
  'state',
] as const;

export interface CheckedRequest {
  client: OAuthClient;
  params: AuthorizationParams;
  /** The permissions asked for (every permission when `scope` is absent). */
  requested: Permission[];
}

/** Where the client's redirect URI is sent an error (its `state` and our `iss` with it). */
export class RedirectWithError extends Error {
  constructor(readonly location: string) {
    super('redirect');
  }
}

export function redirectTo(redirectUri: string, at: OAuthAddresses, fields: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...fields, iss: at.issuer })) if (value !== undefined) url.searchParams.set(name, value);
  return url.href;
}

export async function checkAuthorizationRequest(
  workspace: string,
  at: OAuthAddresses,
  params: AuthorizationParams,
): Promise<CheckedRequest> {
  const client = await resolveClient(workspace, params.client_id);
  if (!client.redirectUris.includes(params.redirect_uri)) {
    throw oauthRefusal('invalid_request', 'redirect_uri is not one of the client’s redirect URIs (they must match exactly)');
  }
  const fail = (error: string, description: string): never => {
    throw new RedirectWithError(redirectTo(params.redirect_uri, at, { error, error_description: description, state: params.state }));
  };
  if (params.response_type !== 'code') fail('unsupported_response_type', 'Only response_type=code is supported');
  if (params.code_challenge_method !== 'S256' || !CHALLENGE.test(params.code_challenge)) {
    fail('invalid_request', 'PKCE is required: code_challenge_method=S256 and a 43-character code_challenge');
  }
  if (params.resource !== at.resource) fail('invalid_target', `resource must be this workspace’s MCP server, ${at.resource}`);
  const named = (params.scope ?? '').split(' ').filter(Boolean);
  const unknown = named.filter((name) => !isPermission(name));
  if (unknown.length > 0) fail('invalid_scope', `Not a permission: ${unknown.join(', ').slice(0, 200)}`);
  const requested = named.length > 0 ? [...new Set(named as Permission[])] : [...PERMISSIONS];
  return { client, params, requested };
}
