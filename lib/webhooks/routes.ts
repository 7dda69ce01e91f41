/**
 * Routes of the Webhooks area: webhook management, the enable step (a signed verification
 * event the receiver must answer 2xx), the deliveries of each webhook, a test event, and the
 * recovery of what a disabled webhook held. Deliveries themselves are made by the pipeline in
 * lib/webhooks/pipeline.ts, and recoveries by its recovery function, not by these routes.
 */
import * as z from 'zod/mini';
import { okBody, routesOf } from '../platform/route.ts';
import { named, nextCursor, okOnly, pageQueryShape, timestamp, uuid } from '../platform/schemas.ts';
import { disabledReason } from './disabled-reason.ts';
import { WEBHOOK_EVENT_TYPES } from './events.ts';
import { DEFAULT_DISABLE_AFTER_SECONDS } from './failure-window.ts';
import { MAX_DELIVERIES_PER_SECOND, MIN_DELIVERIES_PER_SECOND } from './rate-budget.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './record.ts';
import { DELIVERY_RETENTION_DAYS, MAX_FAILURES_IN_A_ROW } from './recovery-window.ts';
import { delivery, deliveryOutcome, eventType, recovery } from './schemas.ts';

const route = routesOf({ tag: 'Webhooks', module: 'webhooks' });

const WRITE = ['webhooks:write', 'ideas:read'] as const;
const READ = ['webhooks:read'] as const;

const webhookName = z.string().check(
  z.minLength(1),
  z.maxLength(100),
  z.refine((name) => name.trim().length > 0, 'must not be blank'),
);
const webhookUrl = z
  .url({ protocol: /^https?$/, normalize: true, error: 'must be an absolute http(s) URL' })
  .check(z.maxLength(2048))
  .register(z.globalRegistry, {
    description:
      'Absolute https URL of the receiver (http only where the deployment allows it), without credentials. It must resolve to public internet addresses; this is checked now and again at every delivery.',
  });
/** Each kind once, in the order given. */
const webhookEvents = z
  .pipe(
    z.array(eventType).check(z.minLength(1)),
    z.transform((events) => [...new Set(events)]),
  )
  .register(z.globalRegistry, { description: `Event kinds to receive: ${WEBHOOK_EVENT_TYPES.join(', ')}` });
const RATE_DESCRIPTION =
  `At most this many deliveries start in any one clock second (${MIN_DELIVERIES_PER_SECOND}–${MAX_DELIVERIES_PER_SECOND.toLocaleString('en')}), ` +
  'counted across every function sending to this webhook (live deliveries, retries, redeliveries, test events and a recovery alike); ' +
  'null for no limit. A delivery over it waits (`throttled`: no attempt is counted, never a failure) and goes out when the budget allows.';
const maxDeliveriesPerSecond = z
  .nullable(z.int().check(z.minimum(MIN_DELIVERIES_PER_SECOND), z.maximum(MAX_DELIVERIES_PER_SECOND)))
  .register(z.globalRegistry, { description: RATE_DESCRIPTION });

const webhook = named(
  'Webhook',
  z.object({
    id: uuid,
    name: z.string(),
    url: z.string(),
    secretPrefix: z.string().register(z.globalRegistry, { description: 'The first 10 characters of the current secret' }),
    authenticationConfigured: z.boolean().register(z.globalRegistry, {
      description: 'Whether delivery authentication (the Bearer secret) is set up; every webhook gets its secret when it is created',
    }),
    events: z.array(eventType),
    enabled: z.boolean(),
    disabledReason: z.nullable(disabledReason).register(z.globalRegistry, {
      description:
        'Why it is disabled, and since when its events are held; null while it is enabled, and for a webhook never enabled yet (nothing is held for one: its receiver was never verified)',
    }),
    maxDeliveriesPerSecond: z.nullable(z.int()).register(z.globalRegistry, { description: RATE_DESCRIPTION }),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
const webhookWithSecret = named(
  'WebhookWithSecret',
  z.extend(webhook, {
    secret: z.string().register(z.globalRegistry, {
      description: 'The Bearer secret (`whsec_…`), shown only in this response: store it now',
    }),
  }),
);

const idParams = z.strictObject({ id: uuid });
const NOT_FOUND_404 = { not_found: 'no webhook with this id in this workspace' };
const DISABLED_400 = { webhook_disabled: 'the webhook is disabled: enable it first' };
/** What becomes of a disabled webhook's events, said wherever a webhook gets disabled. */
const HELD =
  'While it is disabled, each event it subscribes to is recorded as a delivery `held` (no attempt is made), and its deliveries waiting for a ' +
  `retry become \`held\` at once (up to 99; any others when their time comes): enable it, then \`POST /webhooks/{id}/recover\` sends them. ` +
  "The workspace's other enabled webhooks subscribed to `webhook.disabled` hear of it.";
const URL_400 = { webhook_url_not_allowed: true, webhook_url_unresolvable: true } as const;
const webhookBody = okBody({ webhook });

export const createWebhook = route({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/webhooks',
  summary: 'Create a webhook',
  description:
    `Creates a webhook, disabled, with a new Bearer secret that this response shows once. Enable it with POST /webhooks/{id}/enable. ` +
    `At most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace (400 \`webhook_limit_reached\`, enforced atomically). ` +
    'A URL that is not https, carries credentials, or resolves to a loopback, private, link-local, CGNAT, multicast or reserved address is refused (400 `webhook_url_not_allowed`); one that does not resolve, too (400 `webhook_url_unresolvable`). ' +
    'Send an `Idempotency-Key` to retry safely: within 24 hours the same key with the same body creates nothing and answers with that webhook as it is now and its current secret (the secret is never copied into the remembered response); with a different body it is a 409.',
  permissions: WRITE,
  idempotent: true,
  request: {
    body: z.strictObject({
      name: webhookName,
      url: webhookUrl,
      events: webhookEvents,
      maxDeliveriesPerSecond: z.optional(maxDeliveriesPerSecond),
    }),
  },
  response: {
    status: 201,
    body: okBody({ webhook: webhookWithSecret }),
    description: 'Created (or, for a repeated Idempotency-Key, the webhook as it is now, with its current secret)',
    location: '/webhooks/{webhook.id}',
  },
  errors: {
    400: { ...URL_400, webhook_limit_reached: true },
    404: { not_found: 'only for a repeated Idempotency-Key: the webhook it created has been deleted since' },
  },
  table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
});

export const listWebhooks = route({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/webhooks',
  summary: 'List webhooks',
  description: `Every webhook of the workspace (at most ${MAX_WEBHOOKS_PER_WORKSPACE}), oldest first. Secrets are never returned.`,
  permissions: READ,
  response: { status: 200, body: okBody({ webhooks: z.array(webhook) }) },
  table: ['Query'],
});

export const getWebhook = route({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/webhooks/{id}',
  summary: 'Read a webhook',
  description: 'The secret is never returned; `secretPrefix` tells which secret is current.',
  permissions: READ,
  request: { params: idParams },
  response: { status: 200, body: webhookBody },
  errors: { 404: NOT_FOUND_404 },
  table: ['GetItem'],
});

export const updateWebhook = route({
  operationId: 'updateWebhook',
  method: 'PATCH',
  path: '/webhooks/{id}',
  summary: 'Change a webhook',
  description:
    'Changes any of `name`, `url`, `events`, `maxDeliveriesPerSecond` (null removes the limit). A new URL disables the webhook (`enabled:false`, `disabledReason.code` `url_changed`) until it is enabled again, as the new receiver has not been verified; the same URL again is no change. The URL is checked as on create. ' +
    HELD,
  permissions: WRITE,
  request: {
    params: idParams,
    body: z
      .strictObject({
        name: z.optional(webhookName),
        url: z.optional(webhookUrl),
        events: z.optional(webhookEvents),
        maxDeliveriesPerSecond: z.optional(maxDeliveriesPerSecond),
      })
      .check(z.refine((body) => Object.keys(body).length > 0, 'give at least one of name, url, events, maxDeliveriesPerSecond'))
      .register(z.globalRegistry, { minProperties: 1 }),
  },
  response: { status: 200, body: webhookBody },
  errors: { 400: URL_400, 404: NOT_FOUND_404 },
  // A new URL: the webhook and its deliveries waiting for a retry read at once (GetItem, Query), then
  // one transaction of UpdateItems that disables it and holds them.
  table: ['GetItem', 'Query', 'UpdateItem'],
});

export const deleteWebhook = route({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/{id}',
  summary: 'Delete a webhook',
  description:
    'Deletes the webhook at once; deliveries still queued for it are cancelled, a recovery under way stops, and its delivery history expires after 30 days.',
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: okOnly },
  errors: { 404: NOT_FOUND_404 },
  table: ['DeleteItem', 'UpdateItem'],
});

export const rotateWebhookSecret = route({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/webhooks/{id}/rotate',
  summary: 'Rotate a webhook secret',
  description:
    'Issues a new Bearer secret, shown once in this response. The old secret is never used again, and the webhook is disabled (`enabled:false`, `disabledReason.code` `rotated` unless it was disabled already) until enabled again with the new secret in place at the receiver. ' +
    HELD,
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: okBody({ webhook: webhookWithSecret }) },
  errors: { 404: NOT_FOUND_404 },
  // The webhook and its deliveries waiting for a retry read at once, then one transaction of UpdateItems.
  table: ['GetItem', 'Query', 'UpdateItem'],
});

export const enableWebhook = route({
  operationId: 'enableWebhook',
  method: 'POST',
  path: '/webhooks/{id}/enable',
  summary: 'Enable a webhook after verifying its receiver',
  description:
    'Sends a signed `webhook.verification` event to the URL (same headers as every delivery: `Authorization: Bearer <secret>`, `webhook-id`, `webhook-timestamp`, `webhook-signature`; body `{type, timestamp, data:{webhookId, workspace}}`). ' +
    'Only a 2xx answer within 10 s enables the webhook; otherwise 400 `webhook_verification_failed` says why (the status received, a redirect, a timeout, a network error or a blocked address) and the webhook stays disabled. ' +
    "Changes are sent to the webhooks enabled when the pipeline processes them (within about a second of the commit). What it held while it was disabled stays `held` until `POST /webhooks/{id}/recover` sends it; `disabledReason` is cleared, and the workspace's other enabled webhooks subscribed to `webhook.enabled` hear how many deliveries it holds. 409 `webhook_changed` if its URL or secret changed during the verification.",
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: webhookBody },
  errors: { 400: { webhook_verification_failed: true }, 404: NOT_FOUND_404, 409: { webhook_changed: true } },
  table: ['GetItem', 'UpdateItem'],
  timeoutSeconds: 20,
});

export const disableWebhook = route({
  operationId: 'disableWebhook',
  method: 'POST',
  path: '/webhooks/{id}/disable',
  summary: 'Disable a webhook',
  description: `Stops deliveries at once (\`disabledReason.code\` \`manual\`); a webhook already disabled is left as it is. Nothing is dropped: ${HELD}`,
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: webhookBody },
  errors: { 404: NOT_FOUND_404 },
  // The webhook and its deliveries waiting for a retry read at once, then one transaction of UpdateItems: the webhook and those it holds.
  table: ['GetItem', 'Query', 'UpdateItem'],
});

export const listWebhookDeliveries = route({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhooks/{id}/deliveries',
  summary: 'List the deliveries of a webhook',
  description:
    `Newest first, kept ${DELIVERY_RETENTION_DAYS} days. One delivery per event: its \`outcome\` (\`pending\`; \`throttled\` while it waits for the webhook's \`maxDeliveriesPerSecond\`; \`retrying\`; \`delivered\`; \`failed\` once the attempts are used up or the receiver answered 410; \`held\` when the webhook was disabled first: no attempt was made; \`cancelled\` when it was deleted first), ` +
    "the number of attempts made with the latest one's response status, duration and error, when the next attempt is due, the recovery that sent it last, and every attempt (newest first). " +
    '`status` lists only the deliveries in one state (`held`: what a recovery would send); it reads the deliveries newer than the page it answers, of every state. ' +
    'A failed attempt is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h and 24 h (±20 % jitter; longer if the receiver sends Retry-After). ' +
    `A 410 answer disables the webhook and holds its other waiting retries, as POST /webhooks/{id}/disable does, and so does failing for longer than the failure window (${DEFAULT_DISABLE_AFTER_SECONDS / 86_400} days by default: every attempt failed since the first failure after the last 2xx).`,
  permissions: READ,
  request: {
    params: idParams,
    query: z.strictObject({
      ...pageQueryShape,
      status: z.optional(deliveryOutcome).register(z.globalRegistry, { description: 'Only the deliveries in this state' }),
    }),
  },
  response: {
    status: 200,
    body: okBody({
      deliveries: z.array(delivery),
      pagination: z.object({ limit: z.int(), offset: z.int(), hasMore: z.boolean(), nextCursor }),
    }),
  },
  errors: { 404: NOT_FOUND_404 },
  table: ['GetItem', 'Query'],
});

export const redeliverWebhookDelivery = route({
  operationId: 'redeliverWebhookDelivery',
  method: 'POST',
  path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  summary: 'Deliver an event again',
  description:
    'Queues the delivery for an immediate attempt, followed by a fresh retry schedule if it fails, whatever its outcome so far. The event keeps its id, so the receiver sees the same `webhook-id`. ' +
    'The webhook must be enabled (400 `webhook_disabled`); 409 `delivery_in_progress` while an attempt is being made.',
  permissions: WRITE,
  request: {
    params: z.strictObject({ id: uuid, deliveryId: z.string().check(z.regex(/^evt_[0-9a-z]{39}$/, 'must be a delivery id (evt_…)')) }),
  },
  response: { status: 202, body: okOnly, description: 'Queued' },
  errors: {
    400: DISABLED_400,
    404: { not_found: 'no such webhook, or no such delivery for it' },
    409: { delivery_in_progress: true },
  },
  table: ['GetItem', 'UpdateItem'],
  needs: ['webhook-delivery-queue'],
});

export const testWebhook = route({
  operationId: 'testWebhook',
  method: 'POST',
  path: '/webhooks/{id}/test',
  summary: 'Send a test event',
  description:
    'Sends a `webhook.test` event (`{type, timestamp, data:{webhookId, workspace}}`) to the enabled webhook, signed and authenticated like any delivery, ' +
    'through the same pipeline: it shows in the delivery log (answered here, `pending`), is retried, and waits for `maxDeliveriesPerSecond`, as every delivery. ' +
    'Each call sends one more test event. The webhook must be enabled (400 `webhook_disabled`).',
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 202, body: okBody({ delivery }), description: 'Queued: the delivery, as `GET /webhooks/{id}/deliveries` lists it' },
  errors: { 400: DISABLED_400, 404: NOT_FOUND_404 },
  table: ['GetItem', 'PutItem'],
  needs: ['webhook-delivery-queue'],
});

const recoveryBody = okBody({ recovery });
const windowTime = (description: string) => z.iso.datetime().register(z.globalRegistry, { description });

export const recoverWebhook = route({
  operationId: 'recoverWebhook',
  method: 'POST',
  path: '/webhooks/{id}/recover',
  summary: 'Send again what a webhook missed',
  description:
    `Starts a recovery: a background job that sends, once each, every delivery of the window that is \`held\`, \`failed\` or \`cancelled\`; a delivery that was delivered is never sent again, so recovering the same window twice sends nothing new. ` +
    'Answers at once with the job, `queued`: poll `Location` for its `status` and its `queued`, `delivered` and `failed` counts. ' +
    '**In event order**: it sends one delivery at a time, in ascending event id (`webhook-id`: the second the change was committed, then the order the table stream recorded it in), each as the first attempt of a new round, made once: one that fails reads `failed` again and the recovery goes on. ' +
    `Live events keep flowing meanwhile, so a receiver sees newer events before the recovery has caught up: order by \`webhook-id\` where order matters. It waits for \`maxDeliveriesPerSecond\` as every delivery, and stops (\`stopped\`) if the webhook is disabled or deleted meanwhile, or after ${MAX_FAILURES_IN_A_ROW} attempts in a row failed, leaving the rest as it was for another recovery. ` +
    "A function that dies mid-way is resumed from the job's record within a minute: nothing is sent twice but the one delivery whose attempt was under way (with the same `webhook-id`). " +
    `The window: \`since\` inside the deliveries' ${DELIVERY_RETENTION_DAYS}-day retention, \`until\` (default: now) after it and not in the future, in whole seconds (event ids carry seconds). ` +
    'The webhook must be enabled (400 `webhook_disabled`), and one recovery at a time runs per webhook (409 `recovery_in_progress`; one that made no progress for 10 minutes is taken over). ' +
    'Send an `Idempotency-Key` to retry safely.',
  permissions: WRITE,
  idempotent: true,
  request: {
    params: idParams,
    body: z.strictObject({
      since: windowTime('Send the deliveries of events from this time on (inside the 30-day retention)'),
      until: z.optional(windowTime('…up to this time (default: now)')),
    }),
  },
  response: {
    status: 202,
    body: recoveryBody,
    description: 'Queued (or, for a repeated Idempotency-Key, the recovery as first answered)',
    location: '/webhooks/{recovery.webhookId}/recoveries/{recovery.id}',
  },
  errors: { 400: DISABLED_400, 404: NOT_FOUND_404, 409: { recovery_in_progress: true } },
  // One transaction: the webhook (enabled, no recovery under way) takes the recovery, whose record is put, and an
  // abandoned recovery's record is stopped. BatchGetItem: a retry's remembered response; GetItem: its recovery, re-queued if still queued.
  table: ['BatchGetItem', 'GetItem', 'PutItem', 'UpdateItem'],
  needs: ['webhook-recovery-queue'],
});

export const getWebhookRecovery = route({
  operationId: 'getWebhookRecovery',
  method: 'GET',
  path: '/webhooks/{id}/recoveries/{recoveryId}',
  summary: 'Read a recovery',
  description:
    'Its status and counts: `queued` (taken up so far), `delivered`, `failed`; exact, whatever crashed meanwhile. Kept as long as deliveries (30 days).',
  permissions: READ,
  request: { params: z.strictObject({ id: uuid, recoveryId: uuid }) },
  response: { status: 200, body: recoveryBody },
  errors: { 404: { not_found: 'no such recovery of this webhook in this workspace' } },
  table: ['GetItem'],
});
