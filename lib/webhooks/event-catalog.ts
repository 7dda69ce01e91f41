/**
 * The event catalog the OpenAPI document publishes (its `webhooks` section, lib/platform/openapi-webhooks.ts):
 * every event kind with its payload schema (events.ts), and what every delivery has in common, from the
 * code that does it (the headers of signing.ts, the waits of retry-schedule.ts), so the document
 * cannot say something the pipeline does not do. docs/webhooks.md tells the same in prose.
 */
import type { WebhookCatalog, WebhookEventDocument } from '../platform/openapi-webhooks.ts';
import {
  TEST_EVENT_TYPE,
  type TestEventBody,
  testEventSchema,
  VERIFICATION_EVENT_TYPE,
  type VerificationEventBody,
  verificationEventSchema,
  WEBHOOK_EVENT_SCHEMAS,
  type WebhookEventBody,
  type WebhookEventType,
} from './events.ts';
import { DEFAULT_DISABLE_AFTER_SECONDS } from './failure-window.ts';
import { MAX_FAILURES_IN_A_ROW } from './recovery-window.ts';
import { attemptsPerRound, DEFAULT_RETRY_DELAYS_SECONDS } from './retry-schedule.ts';
import { signature } from './signing.ts';

const WORKSPACE = 'your-workspace';
const TIMESTAMP = '2026-01-05T09:30:00.000Z';
const IDEA = '01a216c6-9b3d-7e0c-b626-27d41c03b467';
const WEBHOOK = '5b1e9c2a-3d4f-4e6a-8b7c-9d0e1f2a3b4c';
const FAILURE_WINDOW_DAYS = DEFAULT_DISABLE_AFTER_SECONDS / 86_400;
const OTHER_IDEA = '01a216c5-f1e2-7d3c-9b4a-5c6d7e8f9a0b';
const VOTE = 'Xq3vT0bYk2mN8pLr5sWd1A';

/** What each kind means, and one body of it as it is sent. */
const EVENTS: { [K in WebhookEventType]: { summary: string; description: string; example: Extract<WebhookEventBody, { type: K }> } } = {
  'idea.submitted': {
    summary: 'An idea was submitted',
    description: 'An idea was created (`POST /ideas`, or in the portal).',
    example: { type: 'idea.submitted', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE } },
  },
  'idea.status_changed': {
    summary: "An idea's status changed",
    description:
      "An idea's `status` changed, alone or with other fields (then this event, not `idea.updated`). It carries the `statusMessage` " +
      'written with the new status and how many people had voted for the idea, so you can tell each of them (`GET /ideas/{id}/votes` ' +
      'lists them by `voterRef`, your own reference to match).',
    example: {
      type: 'idea.status_changed',
      timestamp: TIMESTAMP,
      data: {
        ideaId: IDEA,
        workspace: WORKSPACE,
        previousStatus: 'new',
        status: 'planned',
        statusMessage: 'Planned for the spring release',
        statusMessageAr: 'مخطط له في إصدار الربيع',
        voterCount: 42,
      },
    },
  },
  'idea.updated': {
    summary: 'An idea was changed',
    description: 'Any other change of an idea (`PATCH`, `PUT`) that gave it a new version.',
    example: { type: 'idea.updated', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE } },
  },
  'idea.deleted': {
    summary: 'An idea was deleted',
    description: 'An idea was deleted; reading it now answers 404.',
    example: { type: 'idea.deleted', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE } },
  },
  // Issue 39: votes, comments and merges.
  'idea.voted': {
    summary: 'Someone voted for an idea',
    description:
      'A vote was cast on an idea (`POST /ideas/{id}/votes` by a new voter, or by one whose vote so far only came from a merged idea). ' +
      'Not sent when a voter only changes the importance or note, nor for the votes a merge carries over (`idea.merged` says that).',
    example: {
      type: 'idea.voted',
      timestamp: TIMESTAMP,
      data: { ideaId: IDEA, workspace: WORKSPACE, voteId: VOTE, importance: 'critical' },
    },
  },
  'idea.unvoted': {
    summary: 'A vote was withdrawn',
    description: 'A vote cast on the idea was deleted (`DELETE /ideas/{id}/votes/{voteId}`, or the erasure of the voter).',
    example: { type: 'idea.unvoted', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE, voteId: VOTE } },
  },
  'idea.commented': {
    summary: 'An idea got a comment',
    description: 'A comment was written on the idea (`POST /ideas/{id}/comments`), public or internal.',
    example: {
      type: 'idea.commented',
      timestamp: TIMESTAMP,
      data: { ideaId: IDEA, workspace: WORKSPACE, commentId: '01a216c6-a0b1-7c2d-8e3f-405162738495', visibility: 'public' },
    },
  },
  'idea.merged': {
    summary: 'An idea was merged into another',
    description:
      'The idea was merged into `mergedInto` (`POST /ideas/{id}/merge`): that idea now counts its voters and shows its comments, and ' +
      'this one leaves the default lists.',
    example: { type: 'idea.merged', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE, mergedInto: OTHER_IDEA } },
  },
  'idea.unmerged': {
    summary: 'A merge was undone',
    description: 'The idea was unmerged from `unmergedFrom` (`POST /ideas/{id}/unmerge`): both are again as before the merge.',
    example: { type: 'idea.unmerged', timestamp: TIMESTAMP, data: { ideaId: IDEA, workspace: WORKSPACE, unmergedFrom: OTHER_IDEA } },
  },
  'survey.response.finished': {
    summary: 'A survey response was finished',
    description:
      'A survey response was submitted finished, or a continuation finished it: once per response, never for a partial one. ' +
      'Subscribing to it needs the permission `survey-responses:read` besides the webhook permissions, since it reveals respondent activity.',
    example: {
      type: 'survey.response.finished',
      timestamp: TIMESTAMP,
      data: {
        workspace: WORKSPACE,
        surveyId: '0f6d4a52-7c1e-4b8a-9a53-1e2f3a4b5c6d',
        versionId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
        responseId: '01a216c7-0c4e-7d21-9b3a-5c6d7e8f9a0b',
      },
    },
  },
  'webhook.disabled': {
    summary: 'Another webhook of the workspace was disabled',
    description:
      `A webhook of the workspace stopped receiving: disabled by \`POST /webhooks/{id}/disable\` (\`manual\`), a rotation, a new URL, its receiver's 410 (\`gone\`) or ` +
      `its receiver failing every attempt for longer than the failure window (\`failing\`, ${FAILURE_WINDOW_DAYS} days by default). Sent to the workspace's other enabled webhooks ` +
      'subscribed to it, never to the webhook itself; its events are held from `reason.since` on, for `POST /webhooks/{id}/recover` once it is enabled again.',
    example: {
      type: 'webhook.disabled',
      timestamp: TIMESTAMP,
      data: {
        webhookId: WEBHOOK,
        workspace: WORKSPACE,
        name: 'Product board',
        reason: {
          code: 'failing',
          since: TIMESTAMP,
          lastErrors: [
            { at: TIMESTAMP, status: 503, message: 'the receiver answered 503' },
            { at: '2026-01-05T09:29:59.000Z', status: null, message: 'timed out after 10 s' },
          ],
        },
        heldDeliveries: 0,
      },
    },
  },
  'webhook.enabled': {
    summary: 'Another webhook of the workspace was enabled',
    description:
      "A webhook of the workspace was enabled again (its receiver answered the verification). Sent to the workspace's other enabled webhooks " +
      'subscribed to it; `heldDeliveries` says how many of its deliveries it held while disabled, which `POST /webhooks/{id}/recover` sends.',
    example: {
      type: 'webhook.enabled',
      timestamp: TIMESTAMP,
      data: { webhookId: WEBHOOK, workspace: WORKSPACE, name: 'Product board', heldDeliveries: 42 },
    },
  },
};

const TEST: WebhookEventDocument & { example: TestEventBody } = {
  type: TEST_EVENT_TYPE,
  summary: 'A test event',
  description:
    '`POST /webhooks/{id}/test` sends it to that webhook, as a delivery like any other (signed, retried, in the delivery log). ' +
    'No webhook subscribes to it: answer it 2xx and ignore it.',
  body: testEventSchema,
  example: { type: TEST_EVENT_TYPE, timestamp: TIMESTAMP, data: { webhookId: WEBHOOK, workspace: WORKSPACE } },
};

const VERIFICATION: WebhookEventDocument & { example: VerificationEventBody } = {
  type: VERIFICATION_EVENT_TYPE,
  summary: 'Verification, before a webhook is enabled',
  description:
    '`POST /webhooks/{id}/enable` sends it to the receiver, signed and authenticated like any delivery; only a 2xx answer enables ' +
    'the webhook, and it is not retried. No webhook subscribes to it: answer it 2xx and ignore it.',
  body: verificationEventSchema,
  example: {
    type: VERIFICATION_EVENT_TYPE,
    timestamp: TIMESTAMP,
    data: { webhookId: WEBHOOK, workspace: WORKSPACE },
  },
};

/** `5 s, 30 s, 2 min, …, 24 h`. */
function waits(seconds: readonly number[]): string {
  return seconds
    .map((s) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`))
    .join(', ')
    .replace(/, ([^,]+)$/, ' and $1');
}

const EXAMPLE_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const EXAMPLE_ID = 'evt_0t8fxc00000000000000000000000000001f4a9c2';
const EXAMPLE_SECONDS = Date.parse(TIMESTAMP) / 1000;

export const webhookCatalog: WebhookCatalog = {
  events: [
    ...(Object.keys(EVENTS) as WebhookEventType[]).map((type) => ({ type, ...EVENTS[type], body: WEBHOOK_EVENT_SCHEMAS[type] })),
    VERIFICATION,
    TEST,
  ],
  delivery: {
    tag: 'Webhooks',
    description: [
      '**Authenticate every delivery**: `Authorization: Bearer <secret>` and the Standard Webhooks signature (`webhook-signature`), ' +
        'both checked against the raw body as received; answer 401 when either is wrong. Any Standard Webhooks library verifies the ' +
        'signature and refuses a `webhook-timestamp` more than 5 minutes from your clock (the guide “Webhooks”, section “Verifying a delivery”).',
      `**Retries**: a failed attempt is tried again after ${waits(DEFAULT_RETRY_DELAYS_SECONDS)} (±20 % jitter): ` +
        `${attemptsPerRound(DEFAULT_RETRY_DELAYS_SECONDS)} attempts over about two days, each signed afresh; a \`Retry-After\` answer ` +
        '(seconds or an HTTP date) is waited for, up to a day. Then the delivery reads `failed` (`GET /webhooks/{id}/deliveries`), ' +
        'and `POST …/redeliver` sends it again.',
      '**At least once, ordered by `webhook-id`**: no crash drops a delivery, so an event may arrive twice, with the same ' +
        '`webhook-id`: drop duplicates by it. Live events go out within about a second of the change, concurrently, so a retry can ' +
        'arrive after later events; event ids sort by the time of the change (then the order the table recorded it in), and ' +
        '`timestamp` says when it was committed: order by either where order matters.',
      '**Nothing is dropped while a webhook is off**: while it is disabled (by a request, a rotation, a new URL, a 410 or ' +
        `its receiver failing every attempt for longer than ${FAILURE_WINDOW_DAYS} days), every event it subscribes to is kept as a \`held\` ` +
        "delivery for 30 days, and `webhook.disabled` tells the workspace's other webhooks. Once it is enabled, `POST /webhooks/{id}/recover` " +
        'sends what it held (and what failed or was cancelled) once each, one at a time in ascending `webhook-id`, beside the live events; ' +
        `it stops after ${MAX_FAILURES_IN_A_ROW} failed attempts in a row. A delivery already delivered is never sent again by a recovery.`,
      '**A rate per webhook**: with `maxDeliveriesPerSecond`, at most that many deliveries start in any one second; the others wait ' +
        '(`throttled`), never counted as failures.',
      '**Identifiers only**: the body never carries a title, a description, an answer or anything about a person (not even a ' +
        '`voterRef`); read the record through the API with its id. The one text is the status message an integrator wrote for the ' +
        'voters (`idea.status_changed`).',
    ].join('\n\n'),
    headers: {
      'webhook-id': {
        description:
          'The event id: the same on every retry and redelivery of this event (drop duplicates by it); ids sort by the time of the change',
        example: EXAMPLE_ID,
      },
      'webhook-timestamp': {
        description: 'When this attempt was signed, in seconds since the Unix epoch: refuse one more than 5 minutes from your clock',
        example: String(EXAMPLE_SECONDS),
      },
      'webhook-signature': {
        description:
          '`v1,` then the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of ' +
          'the secret after `whsec_` (Standard Webhooks)',
        example: signature(EXAMPLE_SECRET, EXAMPLE_ID, EXAMPLE_SECONDS, JSON.stringify(EVENTS['idea.submitted'].example)),
      },
    },
    responses: {
      '2XX': 'Delivered: any 2xx within 10 s. The body is ignored (at most 64 KB of it is read).',
      '410':
        'Gone: the webhook is disabled (`disabledReason.code` `gone`) and its events are held from then on: enable it again, then recover what it held.',
      default:
        'Any other status, a redirect (never followed), or no answer within 10 s: the attempt failed and is retried as described above; ' +
        `when every attempt has failed for longer than ${FAILURE_WINDOW_DAYS} days, the webhook is disabled (\`failing\`) and its events are held.`,
    },
    credential: {
      name: 'webhookSecret',
      description:
        "The webhook's secret (`whsec_…`), shown once by `POST /webhooks` and `POST /webhooks/{id}/rotate`: every delivery carries " +
        'it as `Authorization: Bearer <secret>`',
    },
  },
};
