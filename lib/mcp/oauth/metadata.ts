/**
 * OAuth for the MCP server, where it lives: the workspace's own host (config.workspaceOrigin). Its
 * MCP server is the protected resource (RFC 9728) and the host is its own authorization server
 * (RFC 8414), whose issuer is the host's origin. Pure: addresses and documents from the origin.
 */
import { config } from '../../platform/config.ts';
import { PERMISSIONS } from '../../platform/permissions.ts';
import { API_PREFIX } from '../../platform/route.ts';
import { oauthUnavailable } from './errors.ts';

export const ACCESS_TOKEN_SECONDS = 3600;
/** What the person may choose on the consent page for the refresh token (how long the agent stays connected): at most 30 days. */
export const LIFETIME_DAYS = [1, 7, 30] as const;
export const AUTHORIZATION_CODE_SECONDS = 120;
/** How long the consent page stays valid once shown, and once the key was entered. */
export const CONSENT_SECONDS = 600;

export interface OAuthAddresses {
  issuer: string;
  /** The protected resource (RFC 8707's `resource`): the workspace's MCP server. */
  resource: string;
  resourceMetadata: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  registrationEndpoint: string;
}

function addressesOf(origin: string): OAuthAddresses {
  return {
    issuer: origin,
    resource: `${origin}${API_PREFIX}/mcp`,
    resourceMetadata: `${origin}/.well-known/oauth-protected-resource${API_PREFIX}/mcp`,
    authorizationEndpoint: `${origin}${API_PREFIX}/oauth/authorize`,
    tokenEndpoint: `${origin}${API_PREFIX}/oauth/token`,
    revocationEndpoint: `${origin}${API_PREFIX}/oauth/revoke`,
    registrationEndpoint: `${origin}${API_PREFIX}/oauth/register`,
  };
}

/** The workspace's OAuth addresses, or 404 `oauth_unavailable` where workspace hosts are not configured. */
export function oauthAddresses(workspace: string): OAuthAddresses {
  const origin = config.workspaceOrigin(workspace);
  if (!origin) throw oauthUnavailable();
  return addressesOf(origin);
}

/** RFC 9728 Protected Resource Metadata of the workspace's MCP server. */
export function resourceMetadata(at: OAuthAddresses) {
  return {
    resource: at.resource,
    authorization_servers: [at.issuer],
    scopes_supported: [...PERMISSIONS],
    bearer_methods_supported: ['header'],
    resource_name: 'Customer Experience Portal MCP server',
  };
}

/** RFC 8414 Authorization Server Metadata of the workspace's host. */
export function authorizationServerMetadata(at: OAuthAddresses) {
  return {
    issuer: at.issuer,
    authorization_endpoint: at.authorizationEndpoint,
    token_endpoint: at.tokenEndpoint,
    revocation_endpoint: at.revocationEndpoint,
    registration_endpoint: at.registrationEndpoint,
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    scopes_supported: [...PERMISSIONS],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}

/** What every 401 of the MCP server says (RFC 9728 §5.1): where a client finds how to get a token. */
export function bearerChallenge(workspace: string): string | undefined {
  const origin = config.workspaceOrigin(workspace);
  return origin ? `Bearer resource_metadata="${addressesOf(origin).resourceMetadata}"` : undefined;
}
