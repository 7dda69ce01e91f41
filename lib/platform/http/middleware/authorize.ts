/**
 * Workspace, Developer key, rate limit, module and permission checks, in that order of verdict:
 *   400 no workspace selected, or a malformed X-Service-Workspace-Host (invalid_header) →
 *   401 missing/malformed key (no database call) →
 *   401 no key of this workspace with this secret (the same answer whether or not the workspace
 *       exists, so an anonymous caller cannot list workspaces; 429 once its source failed too often) →
 *   401 revoked or expired key → 404 unknown workspace (only a valid key's holder learns it) →
 *   429 over the key's rate limit → 403 suspended workspace, disabled module, missing permission →
 *   the body and its validation (400) → the operation.
 *
 * Two round trips, one after the other, for every read: one BatchGetItem reads a copy of the
 * workspace item and the key; once the token matched the key's hash (in memory), one UpdateItem
 * counts the request in the key's window, and the operation runs beside that count instead of after
 * it. The count must wait for the read, because only a holder of the real secret may spend the key's
 * budget (and the update may not name `secretHash`: README, IAM); the operation need not wait for
 * the count. What its reads find is dropped when the count says the request is over its limit: the
 * answer is 429, as if the operation had never run. Its writes wait for the count
 * (lib/platform/write-gate.ts), so none happens for a request over its limit: a write costs a third
 * round trip, or none more when the operation reads before it writes. Nothing runs before the secret
 * is verified except that one read (with a create's remembered Idempotency-Key response in it,
 * which reaches the response only after every check passed).
 */
import type middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { bearerToken } from '../../auth/bearer.ts';
import { credentialOf } from '../../auth/derived-key-token.ts';
import { BUSY_RETRY_AFTER_SECONDS, pushBack } from '../../busy.ts';
import { config } from '../../config.ts';
import { findWorkspaceAndDerivedKey } from '../../data/derived-keys.ts';
import type { DeveloperKey } from '../../data/developer-key-record.ts';
import {
  countKeyUse,
  findWorkspaceAndKey,
  findWorkspaceItself,
  holdsSecret,
  recordFailedAuthentication,
  type StoredKey,
} from '../../data/developer-keys.ts';
import { rememberedKey, rememberedOf } from '../../data/idempotency.ts';
import type { Workspace } from '../../data/workspace-record.ts';
import { ForbiddenError, NotFoundError, RateLimitedError, UnauthorizedError } from '../../errors.ts';
import type { RouteDefinition } from '../../route.ts';
import { idempotencyScope, validIdempotencyKeyOf } from '../conditional-request.ts';
import type { ApiContext, RateLimitVerdict } from '../context.ts';
import { type BudgetCheck, checkBudget, pickBudgetShard } from '../workspace-budget.ts';
import { workspaceSlugFrom } from '../workspace-host.ts';

/** True of every 401 invalid_key cause: unknown key, another workspace's key, a wrong or rotated-away secret. */
const INVALID_KEY_MESSAGE =
  'The Developer key is not valid: no key of this workspace has this secret (after a rotation only the new secret works)';

const ACCESS_TOKEN_MESSAGE =
  'An OAuth access token is for the MCP server (POST /mcp), the resource it was issued for; call the API with a Developer key';

type Request = middy.Request<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, ApiContext>;

/**
 * A count that DynamoDB throttled is the caller's own doing: one key's counter (or one address's
 * failure counter) is one item, and one item takes about 1,000 writes a second (docs/costs.md). So
 * the answer is the caller's 429, not the service's 503. Anything else is left as it failed.
 */
function ownCounterThrottled(failure: unknown): never {
  if (pushBack(failure) !== 'throttled') throw failure;
  throw new RateLimitedError(
    BUSY_RETRY_AFTER_SECONDS,
    `More requests at once than one key's counter can take (one DynamoDB item); retry after ${BUSY_RETRY_AFTER_SECONDS} s, or spread the requests over more keys`,
  );
}

/**
 * The answer the count decides, once it is in: the request's RateLimit-* headers, and the error that
 * replaces whatever else the request would answer (429 over the limit, 401 for a key deleted since
 * it was read). Before the 404 check passed, only the deleted key's 401 may replace an error. A
 * count that failed (DynamoDB) fails the request: nobody can say whether it was within its limit.
 */
async function settle(request: Request): Promise<void> {
  const rateLimit = request.context.rateLimit;
  if (!rateLimit) return;
  let verdict: RateLimitVerdict;
  try {
    verdict = await rateLimit.verdict;
  } catch (countFailure) {
    if (rateLimit.outranksOtherErrors || !request.error) throw countFailure;
    return;
  }
  if (verdict.kind === 'key-gone') throw new UnauthorizedError('invalid_key', INVALID_KEY_MESSAGE);
  if (!rateLimit.outranksOtherErrors) return;
  Object.assign(request.context.responseHeaders, verdict.headers);
  if (verdict.refusal) throw verdict.refusal;
}

/** The key's own limit: its count in its window, and the 429 when over. */
function keyLimitOf(key: DeveloperKey, requestsInWindow: number, windowEndsInSeconds: number) {
  const remaining = Math.max(0, key.rateLimitPerMinute - requestsInWindow);
  return {
    remaining,
    headers: {
      'RateLimit-Limit': String(key.rateLimitPerMinute),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(windowEndsInSeconds),
    },
    refusal: requestsInWindow > key.rateLimitPerMinute ? new RateLimitedError(windowEndsInSeconds) : null,
  };
}

/**
 * Count the request in its key's window and in its workspace budget's shard, two UpdateItems sent
 * together, and say what they decided. The RateLimit-* headers describe the tighter of the two (the
 * one with fewer requests left; the key's on a tie), `RateLimit-Policy` names both; over either, the
 * answer is that one's 429 (the key's when both are spent: the caller's own key).
 */
function countRequest(
  stored: StoredKey,
  budget: Extract<BudgetCheck, { spent: null }>,
  clock: { window: number; windowSeconds: number; windowEndsInSeconds: number; nowMs: number },
): Promise<RateLimitVerdict> {
  const { key } = stored;
  const keyCount = countKeyUse(stored, clock.window, new Date(clock.nowMs).toISOString()).catch(ownCounterThrottled);
  const budgetCount = budget.count();
  // Both settle before the verdict does, so a failure of one never leaves the other running.
  return Promise.allSettled([keyCount, budgetCount]).then(([keyOutcome, budgetOutcome]): RateLimitVerdict => {
    if (keyOutcome.status === 'rejected') throw keyOutcome.reason;
    if (keyOutcome.value === undefined) return { kind: 'key-gone' };
    if (budgetOutcome.status === 'rejected') throw budgetOutcome.reason;
    const own = keyLimitOf(key, keyOutcome.value, clock.windowEndsInSeconds);
    const shared = budgetOutcome.value;
    return {
      kind: 'counted',
      headers: {
        ...(shared.remaining < own.remaining ? shared.headers : own.headers),
        'RateLimit-Policy': `${key.rateLimitPerMinute};w=${clock.windowSeconds};name="key", ${budget.policy}`,
      },
      refusal: own.refusal ?? shared.refusal,
    };
  });
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
      const credential = credentialOf(token);
      if (!credential || credential.kind === 'refresh') throw new UnauthorizedError('invalid_key', 'The Developer key is not valid');
      // An OAuth access token is bound to the MCP server (its resource): the API takes only the form the server forwards.
      if (credential.kind === 'access') throw new UnauthorizedError('invalid_key', ACCESS_TOKEN_MESSAGE);

      const nowMs = Date.now();
      const window = Math.floor(nowMs / 1000 / windowSeconds);
      const clock = {
        nowMs,
        window,
        windowSeconds,
        windowEndsInSeconds: Math.max(1, Math.ceil(((window + 1) * windowSeconds * 1000 - nowMs) / 1000)),
      };
      // A create sent with an Idempotency-Key reads its remembered response in the same BatchGetItem as
      // the workspace and the key: the chain replays it before any check of the area (api-handler.ts).
      // So does the shard of the workspace's budget this request counts in.
      const idempotencyKey = route.idempotent ? validIdempotencyKeyOf(headers) : undefined;
      const remembered = idempotencyKey
        ? rememberedKey(slug, { key: idempotencyKey, scope: idempotencyScope(route, request.event.pathParameters ?? {}) })
        : undefined;
      const shard = pickBudgetShard(slug);
      const beside = { budgetShard: shard.key, remembered };
      const read =
        credential.kind === 'developer-key'
          ? await findWorkspaceAndKey(slug, credential.keyId, beside)
          : await findWorkspaceAndDerivedKey(slug, credential, beside);
      const stored = read.key;

      if (!stored || !holdsSecret(stored, token)) {
        const failures = await recordFailedAuthentication(request.event.requestContext?.http?.sourceIp ?? 'unknown', window).catch(
          ownCounterThrottled,
        );
        if (failures > failureLimit) throw new RateLimitedError(clock.windowEndsInSeconds);
        // One message for every cause: telling them apart would tell which workspaces and key ids exist.
        throw new UnauthorizedError('invalid_key', INVALID_KEY_MESSAGE);
      }
      const { key } = stored;
      request.context.meteredWorkspace = slug;
      // The caller holds the real secret. Unless the budget's shard is spent already (then nothing is
      // counted or written, and no operation runs), count the request, and run everything after this
      // beside the counts. A workspace made before its copies existed is read first (below).
      const rateLimit: NonNullable<ApiContext['rateLimit']> = {
        verdict: Promise.resolve({ kind: 'key-gone' }),
        outranksOtherErrors: false,
      };
      let budget: BudgetCheck | undefined;
      const startCounting = (workspace: Workspace) => {
        budget = checkBudget(workspace, shard, read.budget, nowMs);
        if (budget.spent) return;
        rateLimit.verdict = countRequest(stored, budget, clock);
        request.context.rateLimit = rateLimit;
      };
      if (read.workspace) startCounting(read.workspace);
      // Only a holder of the real secret learns that the key was revoked or has expired.
      if (key.revokedAt) throw new UnauthorizedError('key_revoked', 'The Developer key has been revoked');
      if (key.expiresAt && Date.parse(key.expiresAt) <= nowMs) {
        throw new UnauthorizedError('key_expired', 'The Developer key has expired');
      }
      const workspace = read.workspace ?? (await findWorkspaceItself(slug));
      if (!workspace) throw new NotFoundError('workspace_not_found', `Workspace "${slug}" does not exist`);
      if (!budget) startCounting(workspace);
      if (budget?.spent) throw budget.spent;

      // From here on, a request over its limit is answered 429 whatever else it would have answered.
      rateLimit.outranksOtherErrors = true;
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

      const writesAllowed = rateLimit.verdict.then((outcome) => {
        if (outcome.kind === 'key-gone') throw new UnauthorizedError('invalid_key', INVALID_KEY_MESSAGE);
        if (outcome.refusal) throw outcome.refusal;
      });
      // Awaited by every write the operation sends (write-gate.ts), and by `after` or `onError` here.
      writesAllowed.catch(() => undefined);
      request.context.writesAllowed = writesAllowed;
      request.context.remembered = rememberedOf(read.remembered) ?? undefined;
      request.context.auth = {
        workspace,
        key: { id: key.id, name: key.name, permissions: key.permissions },
      };
    },
    // The operation answered: only if the count says the request was within its limit.
    after: settle,
    // Whatever failed, the count is awaited (Lambda freezes what a returned invocation left running)
    // and, once it outranks the failure, its 429 is the answer.
    onError: async (request: Request) => {
      try {
        await settle(request);
      } catch (answer) {
        request.error = answer as Error;
      }
    },
  };
}
