/**
 * What the OAuth routes take and answer (RFC 6749, 7009, 7591, 8414, 9728): the standards' own
 * names (`client_id`, `redirect_uri`…), forms where the standards send forms. These check shapes;
 * the commands check what the values mean (a client's redirect URIs, the resource, PKCE).
 */
import * as z from 'zod/mini';
import { named } from '../../platform/schemas.ts';

const short = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));
const described = <S extends z.ZodMiniType>(schema: S, description: string): S => {
  z.globalRegistry.add(schema, { description });
  return schema;
};

export const authorizeQuery = z.looseObject({
  response_type: described(short(20), '`code`'),
  client_id: described(short(2048), 'A registered client id, or the https URL of its Client ID Metadata Document'),
  redirect_uri: described(short(2048), 'Exactly one of the client’s redirect URIs'),
  code_challenge: described(short(128), 'PKCE: base64url(SHA-256(code_verifier))'),
  code_challenge_method: described(short(10), '`S256`'),
  resource: described(short(2048), 'RFC 8707: this workspace’s MCP server, `<workspace host>/api/v1/mcp`'),
  scope: z.optional(
    described(z.string().check(z.maxLength(2048)), 'Permissions asked for, space-separated; all the key holds when absent'),
  ),
  state: z.optional(described(z.string().check(z.maxLength(1024)), 'Returned to the client unchanged')),
  lang: z.optional(described(z.enum(['en', 'ar']), 'The page’s language; else from Accept-Language')),
});

const formValue = z.optional(
  z.union([z.string().check(z.maxLength(4096)), z.array(z.string().check(z.maxLength(4096))).check(z.maxLength(100))]),
);

/** Both steps of the consent form (`step=key`, then `step=consent`): every field optional here, the command says which it needs. */
export const consentForm = named(
  'OAuthConsentForm',
  z.record(z.string().check(z.maxLength(64)), formValue).register(z.globalRegistry, {
    description:
      'Step `key`: the authorization request’s parameters, `csrf`, `expires` and `key` (a Developer key). ' +
      'Step `consent`: `request`, `csrf`, `permission` (repeated), `lifetime` (days), `decision` (`allow` or `deny`).',
  }),
);

export const tokenForm = named(
  'OAuthTokenRequest',
  z.looseObject({
    grant_type: described(short(40), '`authorization_code` or `refresh_token`'),
    client_id: described(short(2048), 'The client id the code or refresh token was issued to'),
    code: z.optional(short(200)),
    code_verifier: z.optional(short(128)),
    redirect_uri: z.optional(short(2048)),
    refresh_token: z.optional(short(200)),
    resource: z.optional(short(2048)),
    scope: z.optional(z.string().check(z.maxLength(2048))),
  }),
);

export const tokenResponse = named(
  'OAuthTokenResponse',
  z.object({
    access_token: described(z.string(), 'A derived key for the MCP server only (`cxa_…`): the REST API refuses it'),
    token_type: z.literal('Bearer'),
    expires_in: z.int(),
    refresh_token: described(z.string(), '`cxr_…`, single-use: each refresh answers a new one'),
    scope: described(z.string(), 'The permissions granted, space-separated'),
  }),
);

export const revokeForm = named(
  'OAuthRevocationRequest',
  z.looseObject({ token: short(200), token_type_hint: z.optional(short(40)), client_id: z.optional(short(2048)) }),
);

export const registrationRequest = named(
  'OAuthClientRegistration',
  z.looseObject({
    redirect_uris: z.array(short(2048)).check(z.minLength(1), z.maxLength(10)),
    client_name: z.optional(z.string().check(z.maxLength(200))),
    token_endpoint_auth_method: z.optional(z.string()),
    grant_types: z.optional(z.array(z.string())),
    response_types: z.optional(z.array(z.string())),
  }),
);

export const registrationResponse = named(
  'OAuthClientInformation',
  z.object({
    client_id: z.string(),
    client_id_issued_at: z.int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
  }),
);

export const resourceMetadataResponse = named('OAuthProtectedResourceMetadata', z.looseObject({ resource: z.string() }));
export const serverMetadataResponse = named('OAuthAuthorizationServerMetadata', z.looseObject({ issuer: z.string() }));
