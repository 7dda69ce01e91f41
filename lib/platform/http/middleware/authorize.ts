/**
 * Workspace, Developer key, rate limit, module and permission checks, in that order of verdict:
 *   400 no workspace selected, or a malformed X-Service-Workspace-Host (invalid_header) →
 *   401 missing/malformed key (no database call) →
 *   401 no key of this workspace with this secret (the same answer whether or not the workspace
 *       exists, so an anonymous caller cannot list workspaces; 429 once its source failed too often) →
 *   401 revoked or expired key → 404 unknown workspace (only a valid key's holder learns it) →
 *   429 over the key's rate limit → 403 suspended workspace, disabled module, missing permission.
 * Two DynamoDB calls: one BatchGetItem reads the workspace and the key, then, once the token
 * matched the key's hash, one UpdateItem counts the request in the key's rate-limit window. The
 * count waits for the read because only a holder of the real secret may spend the key's budget,
 * and the update may not name `secretHash` (README, IAM): two round trips of latency where one
 * conditional update used to do both, which IAM would have denied every read-only route.
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { parseToken } from '../../auth/developer-key-token.ts';
import { config } from '../../config.ts';
import { findWorkspaceAndKey, recordFailedAuthentication, recordKeyUse } from '../../data/developer-keys.ts';
import { rememberedKey, rememberedOf } from '../../data/idempotency.ts';
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from '../../errors.ts';
import type { RouteDefinition } from '../../route.ts';
import { idempotencyScope, validIdempotencyKeyOf } from '../conditional-request.ts';
import type { ApiContext } from '../context.ts';
import { workspaceSlugFrom } from '../workspace-host.ts';

/** True of every 401 invalid_key cause: unknown key, another workspace's key, a wrong or rotated-away secret. */
const INVALID_KEY_MESSAGE =
  'The Developer key is not valid: no key of this workspace has this secret (after a rotation only the new secret works)';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

function bearerToken(header: string | undefined): string {
  if (!header) throw new UnauthorizedError('missing_key', 'Send a Developer key as "Authorization: Bearer <key>"');
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthorizedError('invalid_key', 'The Authorization header must be "Bearer <key>"');
  return match[1]!;
}

export function authorize(
  route: Pick<RouteDefinition, 'module' | 'permissions' | 'idempotent' | 'method' | 'path'>,
): middy.MiddlewareObj<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext> {
  const windowSeconds = config.rateLimitWindowSeconds();
  const failureLimit = config.authFailuresPerWindow();
  return {
    before: async (request: Request) => {
      const headers = request.event.headers ?? {};
      const slug = workspaceSlugFrom(headers);
      const token = bearerToken(headers.authorization);
      const parsed = parseToken(token);
      if (!parsed) throw new UnauthorizedError('invalid_key', 'The Developer key is not valid');

      const nowMs = Date.now();
      const window = Math.floor(nowMs / 1000 / windowSeconds);
      const windowEndsInSeconds = Math.max(1, Math.ceil(((window + 1) * windowSeconds * 1000 - nowMs) / 1000));
      // A create sent with an Idempotency-Key reads its remembered response in the same BatchGetItem as
      // the workspace and the key: the chain replays it before any check of the area (api-handler.ts).
      const idempotencyKey = route.idempotent ? validIdempotencyKeyOf(headers) : undefined;
      const remembered = idempotencyKey
        ? rememberedKey(slug, { key: idempotencyKey, scope: idempotencyScope(route, request.event.pathParameters ?? {}) })
        : undefined;
      const { workspace, key: stored, also: other } = await findWorkspaceAndKey(slug, parsed.keyId, remembered);
      const use = stored ? await recordKeyUse(stored, token, window, new Date(nowMs).toISOString()) : { kind: 'rejected' as const };

      if (use.kind === 'rejected') {
        const failures = await recordFailedAuthentication(request.event.requestContext?.http?.sourceIp ?? 'unknown', window);
        if (failures > failureLimit) throw new RateLimitedError(windowEndsInSeconds);
        // One message for every cause: telling them apart would tell which workspaces and key ids exist.
        throw new UnauthorizedError('invalid_key', INVALID_KEY_MESSAGE);
      }
      const { key } = use;
      // Only a holder of the real secret learns that the key was revoked or has expired.
      if (key.revokedAt) throw new UnauthorizedError('key_revoked', 'The Developer key has been revoked');
      if (key.expiresAt && Date.parse(key.expiresAt) <= nowMs) {
        throw new UnauthorizedError('key_expired', 'The Developer key has expired');
      }
      if (!workspace) throw new NotFoundError('workspace_not_found', `Workspace "${slug}" does not exist`);

      Object.assign(request.context.responseHeaders, {
        'RateLimit-Limit': String(key.rateLimitPerMinute),
        'RateLimit-Remaining': String(Math.max(0, key.rateLimitPerMinute - use.requestsInWindow)),
        'RateLimit-Reset': String(windowEndsInSeconds),
      });
      if (use.requestsInWindow > key.rateLimitPerMinute) throw new RateLimitedError(windowEndsInSeconds);

      if (workspace.status !== 'active') {
        throw new ForbiddenError('workspace_suspended', `Workspace "${slug}" is suspended`);
      }
      if (route.module && workspace.disabledModules.includes(route.module)) {
        throw new ForbiddenError('module_disabled', `The ${route.module} module is not available in this workspace`);
      }
      const missing = route.permissions.filter((p) => !key.permissions.includes(p));
      if (missing.length > 0) {
        throw new ForbiddenError('missing_permission', `The Developer key lacks the permission ${missing.join(', ')}`);
      }

      request.context.remembered = rememberedOf(other) ?? undefined;
      request.context.auth = {
        workspace,
        key: { id: key.id, name: key.name, permissions: key.permissions },
      };
    },
  };
}
