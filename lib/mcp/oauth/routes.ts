/**
 * OAuth 2.1 for the MCP server (docs/mcp.md, "OAuth"): the metadata documents at the host's root
 * (RFC 9728, RFC 8414), registration (RFC 7591), the consent page and its form, the token and
 * revocation endpoints. All on the workspace's own host, without a key: a client has none yet.
 */
import * as z from 'zod/mini';
import { routesOf } from '../../platform/route.ts';
import { okOnly } from '../../platform/schemas.ts';
import {
  authorizeQuery,
  consentForm,
  registrationRequest,
  registrationResponse,
  resourceMetadataResponse,
  revokeForm,
  serverMetadataResponse,
  tokenForm,
  tokenResponse,
} from './schemas.ts';

/** Every OAuth route is on the workspace's own host: the metadata's addresses are there. */
const route = routesOf({ tag: 'MCP', module: null, functions: 'functions/oauth', workspaceHost: true });

const UNAVAILABLE = { 404: { oauth_unavailable: true } } as const;
const PAGE = z.string().register(z.globalRegistry, { description: 'The consent page (HTML, no script)' });
const BACK_TO_CLIENT =
  'Back to the client’s `redirect_uri` (`Location`) with `code`, `state` and `iss`, or with `error` (`access_denied`, ' +
  '`invalid_request`, `invalid_scope`, `invalid_target`, `unsupported_response_type`), `state` and `iss`';

export const getMcpResourceMetadata = route({
  operationId: 'getMcpResourceMetadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource/api/v1/mcp',
  root: true,
  summary: 'OAuth: the MCP server’s protected resource metadata (RFC 9728)',
  description:
    'Public, on the workspace host. Names the MCP server as the protected resource, this host as its authorization server and ' +
    'the permissions as scopes. Every 401 of `POST /mcp` points here (`WWW-Authenticate: Bearer resource_metadata=…`).',
  auth: 'none',
  permissions: [],
  response: { status: 200, body: resourceMetadataResponse },
  errors: UNAVAILABLE,
});

export const getRootResourceMetadata = route({
  operationId: 'getRootResourceMetadata',
  method: 'GET',
  path: '/.well-known/oauth-protected-resource',
  root: true,
  summary: 'OAuth: the protected resource metadata, root form',
  description: 'The same document as at `/.well-known/oauth-protected-resource/api/v1/mcp`, for clients that look at the root first.',
  auth: 'none',
  permissions: [],
  response: { status: 200, body: resourceMetadataResponse },
  errors: UNAVAILABLE,
});

export const getAuthorizationServerMetadata = route({
  operationId: 'getAuthorizationServerMetadata',
  method: 'GET',
  path: '/.well-known/oauth-authorization-server',
  root: true,
  summary: 'OAuth: the authorization server metadata (RFC 8414)',
  description:
    'Public. The workspace host is its own issuer: authorization code with PKCE S256 only, refresh tokens, revocation, dynamic ' +
    'registration (RFC 7591) and Client ID Metadata Documents.',
  auth: 'none',
  permissions: [],
  response: { status: 200, body: serverMetadataResponse },
  errors: UNAVAILABLE,
});

export const registerOAuthClient = route({
  operationId: 'registerOAuthClient',
  method: 'POST',
  path: '/oauth/register',
  summary: 'OAuth: register a client (RFC 7591)',
  description:
    'Public. A public client (no secret): its redirect URIs (https, or loopback http) and name. Clients that can should use a ' +
    'Client ID Metadata Document (an https `client_id`) instead, which needs no registration. A source address that registers ' +
    'more than a few clients a minute (`OAUTH_REGISTRATIONS_PER_WINDOW`) is braked, 429.',
  auth: 'none',
  permissions: [],
  request: { body: registrationRequest },
  response: { status: 201, body: registrationResponse },
  errors: { 400: { invalid_redirect_uri: true, invalid_client_metadata: true }, 429: { rate_limited: true }, ...UNAVAILABLE },
  table: ['UpdateItem', 'PutItem'],
});

export const showOAuthConsent = route({
  operationId: 'showOAuthConsent',
  method: 'GET',
  path: '/oauth/authorize',
  summary: 'OAuth: the consent page (authorization request)',
  description:
    'Public. Checks the request (the client, `redirect_uri` exactly one of its own, `response_type=code`, PKCE S256, `resource` ' +
    'this workspace’s MCP server, `scope` permissions) and shows the page, in English or Arabic (`Accept-Language`, `lang`), that ' +
    'names the client and asks for a Developer key. A bad client or redirect URI is refused here, as a page for the person in their ' +
    'language (never sent to an address nobody vouched for); anything else goes back to the client.',
  auth: 'none',
  permissions: [],
  request: { query: authorizeQuery },
  response: {
    status: 200,
    body: PAGE,
    contentType: 'text/html',
    errorsAsPages: true,
    otherAnswers: { 302: { description: BACK_TO_CLIENT } },
  },
  errors: { 400: { invalid_request: true, invalid_client_metadata: true }, 401: { invalid_client: true }, ...UNAVAILABLE },
  needs: ['keyed-hash'],
  table: ['GetItem'],
  timeoutSeconds: 15,
});

export const submitOAuthConsent = route({
  operationId: 'submitOAuthConsent',
  method: 'POST',
  path: '/oauth/authorize',
  summary: 'OAuth: the consent form (the key, then Allow or Deny)',
  description:
    'Public: the consent page’s form. Step `key` proves a Developer key (a wrong one shows the page again, 401; a source that keeps ' +
    'failing is braked, 429) and shows the permissions the client asked for that the key holds. Step `consent` allows (a code, ' +
    'single-use, 2 minutes) or denies. Each form carries a CSRF token bound to it.',
  auth: 'none',
  permissions: [],
  request: { body: consentForm, contentType: 'application/x-www-form-urlencoded' },
  response: {
    status: 200,
    body: PAGE,
    contentType: 'text/html',
    errorsAsPages: true,
    otherAnswers: { 303: { description: BACK_TO_CLIENT }, 401: { description: 'The page again, saying the key is not valid' } },
  },
  errors: {
    400: { invalid_request: true, invalid_client_metadata: true },
    401: { invalid_client: true },
    429: { rate_limited: true },
    ...UNAVAILABLE,
  },
  needs: ['keyed-hash'],
  table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem'],
  timeoutSeconds: 15,
});

export const exchangeOAuthToken = route({
  operationId: 'exchangeOAuthToken',
  method: 'POST',
  path: '/oauth/token',
  summary: 'OAuth: tokens for a code or a refresh token',
  description:
    'Public (RFC 6749 §3.2). `authorization_code` (with `code_verifier`, `redirect_uri`, `client_id`) or `refresh_token` (rotated: ' +
    'each answer has a new one; one presented again revokes the grant). The access token is a derived key of the Developer key the ' +
    'person entered: its granted permissions, 1 hour, for the MCP server only.',
  auth: 'none',
  permissions: [],
  request: { body: tokenForm, contentType: 'application/x-www-form-urlencoded' },
  response: { status: 200, body: tokenResponse, headers: { 'Cache-Control': { description: '`no-store`' } } },
  errors: { 400: { invalid_request: true, invalid_grant: true, unsupported_grant_type: true, invalid_target: true }, ...UNAVAILABLE },
  needs: ['keyed-hash'],
  table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem'],
});

export const revokeOAuthToken = route({
  operationId: 'revokeOAuthToken',
  method: 'POST',
  path: '/oauth/revoke',
  summary: 'OAuth: revoke a token (RFC 7009)',
  description:
    'Public. Revokes the grant an access or refresh token belongs to: both stop working at once. An unknown token is answered alike.',
  auth: 'none',
  permissions: [],
  request: { body: revokeForm, contentType: 'application/x-www-form-urlencoded' },
  response: { status: 200, body: okOnly },
  errors: UNAVAILABLE,
  needs: ['keyed-hash'],
  table: ['GetItem', 'UpdateItem'],
});
