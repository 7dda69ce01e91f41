/**
 * Routes of the Webhooks area: webhook management, the enable step (a signed verification
 * event the receiver must answer 2xx), and the deliveries of each webhook. Deliveries themselves
 * are made by the pipeline in lib/webhooks/pipeline.ts, not by these routes.
 */
import * as z from 'zod/mini';
import { okBody, routesOf } from '../platform/route.ts';
import { named, nextCursor, okOnly, pageQueryShape, timestamp, uuid } from '../platform/schemas.ts';
import { WEBHOOK_EVENT_TYPES } from './events.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './record.ts';
import { delivery, eventType } from './schemas.ts';

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
  request: { body: z.strictObject({ name: webhookName, url: webhookUrl, events: webhookEvents }) },
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
    'Changes any of `name`, `url`, `events`. A new URL disables the webhook (`enabled:false`) until it is enabled again, as the new receiver has not been verified; the same URL again is no change. The URL is checked as on create.',
  permissions: WRITE,
  request: {
    params: idParams,
    body: z
      .strictObject({ name: z.optional(webhookName), url: z.optional(webhookUrl), events: z.optional(webhookEvents) })
      .check(z.refine((body) => Object.keys(body).length > 0, 'give at least one of name, url, events'))
      .register(z.globalRegistry, { minProperties: 1 }),
  },
  response: { status: 200, body: webhookBody },
  errors: { 400: URL_400, 404: NOT_FOUND_404 },
  table: ['UpdateItem'],
});

export const deleteWebhook = route({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/webhooks/{id}',
  summary: 'Delete a webhook',
  description: 'Deletes the webhook at once; deliveries still queued for it are cancelled, and its delivery history expires after 30 days.',
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
    'Issues a new Bearer secret, shown once in this response. The old secret is never used again, and the webhook is disabled (`enabled:false`) until enabled again with the new secret in place at the receiver.',
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: okBody({ webhook: webhookWithSecret }) },
  errors: { 404: NOT_FOUND_404 },
  table: ['UpdateItem'],
});

export const enableWebhook = route({
  operationId: 'enableWebhook',
  method: 'POST',
  path: '/webhooks/{id}/enable',
  summary: 'Enable a webhook after verifying its receiver',
  description:
    'Sends a signed `webhook.verification` event to the URL (same headers as every delivery: `Authorization: Bearer <secret>`, `webhook-id`, `webhook-timestamp`, `webhook-signature`; body `{type, timestamp, data:{webhookId, workspace}}`). ' +
    'Only a 2xx answer within 10 s enables the webhook; otherwise 400 `webhook_verification_failed` says why (the status received, a redirect, a timeout, a network error or a blocked address) and the webhook stays disabled. ' +
    'Changes are sent to the webhooks enabled when the pipeline processes them (within about a second of the commit); changes processed while a webhook was disabled are not sent later. 409 `webhook_changed` if its URL or secret changed during the verification.',
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
  description:
    'Stops deliveries at once: deliveries waiting for a retry show `cancelled` as soon as this answers (up to 100 of them; ' +
    'any others when their time comes), and those still queued are cancelled (redeliver them after enabling again).',
  permissions: WRITE,
  request: { params: idParams },
  response: { status: 200, body: webhookBody },
  errors: { 404: NOT_FOUND_404 },
  // UpdateItem also covers the cancelling transaction (IAM checks each of its items' actions).
  table: ['UpdateItem', 'Query'],
});

export const listWebhookDeliveries = route({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/webhooks/{id}/deliveries',
  summary: 'List the deliveries of a webhook',
  description:
    'Newest first, kept 30 days. One delivery per event: its `outcome` (`pending`, `retrying`, `delivered`, `failed` once the attempts are used up or the receiver answered 410, `cancelled` when the webhook was disabled or deleted first), ' +
    "the number of attempts made with the latest one's response status, duration and error, when the next attempt is due, and every attempt (newest first). " +
    'A failed attempt is retried after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h and 24 h (±20 % jitter; longer if the receiver sends Retry-After). A 410 answer disables the webhook and cancels its other waiting retries, as POST /webhooks/{id}/disable does.',
  permissions: READ,
  request: { params: idParams, query: z.strictObject(pageQueryShape) },
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
    400: { webhook_disabled: true },
    404: { not_found: 'no such webhook, or no such delivery for it' },
    409: { delivery_in_progress: true },
  },
  table: ['GetItem', 'UpdateItem'],
  needs: ['webhook-delivery-queue'],
});
