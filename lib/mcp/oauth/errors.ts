/**
 * The OAuth area's answers (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2): each an error code of
 * the catalog, sent in the API's envelope. An OAuth client reads `error` (the standard's code) and
 * ignores `ok` and `message`, so the one envelope is also a valid OAuth error response. The codes an
 * authorization request's errors send back to the client's redirect URI (`unsupported_response_type`,
 * `invalid_scope`, …: authorization-request.ts) are query parameters there, never an envelope, so not here.
 */
import { defineErrorCodes } from '../../platform/error-codes.ts';
import { ApiError } from '../../platform/errors.ts';

export const oauthErrorCodes = defineErrorCodes({
  400: {
    invalid_request: 'OAuth: a parameter is missing, repeated or malformed (RFC 6749)',
    invalid_grant: 'OAuth: the code or refresh token is unknown, used, expired or revoked, or its verifier or redirect URI does not match',
    unsupported_grant_type: 'OAuth: only `authorization_code` and `refresh_token` are granted',
    invalid_target: 'OAuth: `resource` (RFC 8707) is missing or is not this workspace’s MCP server',
    invalid_redirect_uri: 'OAuth registration: a redirect URI is not https (or loopback http)',
    invalid_client_metadata: 'OAuth: the client’s registration or metadata document is invalid or unreachable',
  },
  401: {
    invalid_client: 'OAuth: no client with this `client_id` is registered here, or its metadata document says otherwise',
  },
  404: {
    oauth_unavailable: 'OAuth is offered on workspace hosts only (`WORKSPACE_URL_TEMPLATE`): this deployment or host has none',
  },
});

type OAuthCode = keyof typeof oauthErrorCodes;
type BadRequestCode = Exclude<OAuthCode, 'invalid_client' | 'oauth_unavailable'>;

/** An OAuth refusal with status 400 and the standard's code. */
export const oauthRefusal = (code: BadRequestCode, message: string) => new ApiError(400, code, message);

export const invalidClient = (message: string) => new ApiError(401, 'invalid_client', message);

export const oauthUnavailable = () =>
  new ApiError(
    404,
    'oauth_unavailable',
    'OAuth is offered on workspace hosts only, and this deployment names none (WORKSPACE_URL_TEMPLATE)',
  );
