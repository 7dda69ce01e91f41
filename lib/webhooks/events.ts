/**
 * Webhook events: their kinds, their payloads, and how a DynamoDB stream record becomes one. Each
 * area says what a record means (lib/ideas/stream.ts `ideaChanges`, lib/surveys/stream.ts
 * `finishedResponses`); anything else is ignored.
 *
 * Payloads carry identifiers only (and status labels): never a title, description, answer or
 * anything about the submitter or respondent, so personal data cannot leak to a receiver.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { commentChanges, type IdeaChange, ideaChanges, voteChanges } from '../ideas/stream.ts';
import { type AuthContext, holds } from '../platform/auth/context.ts';
import { ForbiddenError } from '../platform/errors.ts';
import type { StreamReading } from '../platform/event-sources.ts';
import type { Permission } from '../platform/permissions.ts';
import { named, uuid } from '../platform/schemas.ts';
import { finishedResponses } from '../surveys/stream.ts';
import { disabledReason } from './disabled-reason.ts';
import { webhookLifecycle } from './lifecycle.ts';

export const WEBHOOK_EVENT_TYPES = [
  'idea.submitted',
  'idea.status_changed',
  'idea.updated',
  'idea.deleted',
  // Issue 39: votes, comments and merges.
  'idea.voted',
  'idea.unvoted',
  'idea.commented',
  'idea.merged',
  'idea.unmerged',
  'survey.response.finished',
  // A webhook's own lifecycle, told to the workspace's other webhooks (lib/webhooks/lifecycle.ts).
  'webhook.disabled',
  'webhook.enabled',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by the enable step only; no webhook subscribes to it. */
export const VERIFICATION_EVENT_TYPE = 'webhook.verification' as const;

/** Sent by `POST /webhooks/{id}/test` only, as a delivery like any other; no webhook subscribes to it. */
export const TEST_EVENT_TYPE = 'webhook.test' as const;

/** What a delivery can carry: every kind a webhook subscribes to, and the test event. */
export const DELIVERY_EVENT_TYPES = [...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

// The payloads, one schema each: the OpenAPI document's `webhooks` section and the typed client are
// generated from them, and what the pipeline sends is typed by them (WebhookEvent below).

const workspace = z.string().register(z.globalRegistry, { description: 'The workspace (its slug)' });
const ideaId = z.string().register(z.globalRegistry, { description: 'The idea: `GET /ideas/{id}` reads it (after `idea.deleted`, 404)' });
const ideaStatus = (description: string) => z.nullable(z.string()).register(z.globalRegistry, { description });

const ideaEventData = named('IdeaEventData', z.object({ ideaId, workspace }));
const ideaStatusChangedEventData = named(
  'IdeaStatusChangedEventData',
  z.object({
    ideaId,
    workspace,
    previousStatus: ideaStatus('The status before the change; null when it had none'),
    status: ideaStatus('The status now; null when it was cleared'),
    statusMessage: z.nullable(z.string()).register(z.globalRegistry, {
      description: 'What the change means for the voters, as the `statusMessage` written with the status; null when none was',
    }),
    statusMessageAr: z.nullable(z.string()).register(z.globalRegistry, { description: 'The status message in Arabic, or null' }),
    voterCount: z.int().register(z.globalRegistry, {
      description: 'How many people had voted for the idea when its status changed (`GET /ideas/{id}/votes` lists them by `voterRef`)',
    }),
  }),
);
const voteId = z.string().register(z.globalRegistry, {
  description: 'The vote (`GET /ideas/{id}/votes` lists it, with its `voterRef`); never the voter themselves',
});
const ideaVotedEventData = named(
  'IdeaVotedEventData',
  z.object({
    ideaId,
    workspace,
    voteId,
    importance: z.enum(['nice', 'important', 'critical']).register(z.globalRegistry, { description: 'How much it matters to the voter' }),
  }),
);
const ideaUnvotedEventData = named('IdeaUnvotedEventData', z.object({ ideaId, workspace, voteId }));
const ideaCommentedEventData = named(
  'IdeaCommentedEventData',
  z.object({
    ideaId,
    workspace,
    commentId: z.string().register(z.globalRegistry, { description: 'The comment: `GET /ideas/{id}/comments` lists it' }),
    visibility: z.enum(['public', 'internal']),
  }),
);
const ideaMergedEventData = named(
  'IdeaMergedEventData',
  z.object({
    ideaId,
    workspace,
    mergedInto: z.string().register(z.globalRegistry, { description: 'The idea it was merged into, which now counts its voters' }),
  }),
);
const ideaUnmergedEventData = named(
  'IdeaUnmergedEventData',
  z.object({
    ideaId,
    workspace,
    unmergedFrom: z.string().register(z.globalRegistry, { description: 'The idea it had been merged into' }),
  }),
);
const surveyResponseFinishedEventData = named(
  'SurveyResponseFinishedEventData',
  z.object({
    workspace,
    surveyId: uuid,
    versionId: z.uuid().register(z.globalRegistry, { description: 'The survey version the response was given to' }),
    responseId: z.uuid().register(z.globalRegistry, {
      description: 'The response: `GET /surveys/{surveyId}/responses/{responseId}` reads it (permission survey-responses:read)',
    }),
  }),
);
const verificationEventData = named('WebhookVerificationEventData', z.object({ webhookId: uuid, workspace }));

// A webhook's lifecycle: the webhook it is about, named (its name is the workspace's own label, not a person's data).
const webhookId = z.uuid().register(z.globalRegistry, { description: 'The webhook this event is about: `GET /webhooks/{id}` reads it' });
const webhookName = z.string().register(z.globalRegistry, { description: "The webhook's name" });
const heldDeliveries = z.int().register(z.globalRegistry, {
  description:
    'Its deliveries held since it was disabled, counted when this event was made: `POST /webhooks/{id}/recover` sends them once it is enabled',
});
const webhookDisabledEventData = named(
  'WebhookDisabledEventData',
  z.object({ webhookId, workspace, name: webhookName, reason: disabledReason, heldDeliveries }),
);
const webhookEnabledEventData = named('WebhookEnabledEventData', z.object({ webhookId, workspace, name: webhookName, heldDeliveries }));
const testEventData = named('WebhookTestEventData', z.object({ webhookId, workspace }));

function eventSchema<const T extends string, D extends z.ZodMiniType>(name: string, type: T, data: D) {
  return named(
    name,
    z.object({
      type: z.literal(type),
      timestamp: z.iso
        .datetime()
        .register(z.globalRegistry, { description: 'When the change was committed (for the verification event: when it was sent)' }),
      data,
    }),
  );
}

/** Each event kind's body, as every receiver gets it: `{type, timestamp, data}`, identifiers only. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'idea.submitted': eventSchema('IdeaSubmittedEvent', 'idea.submitted', ideaEventData),
  'idea.status_changed': eventSchema('IdeaStatusChangedEvent', 'idea.status_changed', ideaStatusChangedEventData),
  'idea.updated': eventSchema('IdeaUpdatedEvent', 'idea.updated', ideaEventData),
  'idea.deleted': eventSchema('IdeaDeletedEvent', 'idea.deleted', ideaEventData),
  'idea.voted': eventSchema('IdeaVotedEvent', 'idea.voted', ideaVotedEventData),
  'idea.unvoted': eventSchema('IdeaUnvotedEvent', 'idea.unvoted', ideaUnvotedEventData),
  'idea.commented': eventSchema('IdeaCommentedEvent', 'idea.commented', ideaCommentedEventData),
  'idea.merged': eventSchema('IdeaMergedEvent', 'idea.merged', ideaMergedEventData),
  'idea.unmerged': eventSchema('IdeaUnmergedEvent', 'idea.unmerged', ideaUnmergedEventData),
  'survey.response.finished': eventSchema('SurveyResponseFinishedEvent', 'survey.response.finished', surveyResponseFinishedEventData),
  'webhook.disabled': eventSchema('WebhookDisabledEvent', 'webhook.disabled', webhookDisabledEventData),
  'webhook.enabled': eventSchema('WebhookEnabledEvent', 'webhook.enabled', webhookEnabledEventData),
} satisfies Record<WebhookEventType, z.ZodMiniType>;

/** The event the enable step sends, which every receiver must answer 2xx before the webhook is enabled. */
export const verificationEventSchema = eventSchema('WebhookVerificationEvent', VERIFICATION_EVENT_TYPE, verificationEventData);

/** The event `POST /webhooks/{id}/test` sends. */
export const testEventSchema = eventSchema('WebhookTestEvent', TEST_EVENT_TYPE, testEventData);

/** A body a receiver gets, of any kind the pipeline sends. */
export type WebhookEventBody = { [K in WebhookEventType]: z.output<(typeof WEBHOOK_EVENT_SCHEMAS)[K]> }[WebhookEventType];
export type VerificationEventBody = z.output<typeof verificationEventSchema>;
export type TestEventBody = z.output<typeof testEventSchema>;

/** An event of the pipeline: its body, and an id stable for the stream record it comes from (retries and duplicates share it). */
export type WebhookEvent = WebhookEventBody & { id: string };

/** The JSON body every receiver gets. */
export function eventBody(event: WebhookEvent | (TestEventBody & { id: string })): string {
  const { type, timestamp, data } = event;
  return JSON.stringify({ type, timestamp, data });
}

/**
 * A time-ordered id, derived only from the stream record: the record's creation second, then its
 * sequence number (both fixed-width base 36, so ids sort by time and, within a second, in stream
 * order), then a short hash of the record's eventID for global uniqueness.
 */
export function eventIdOf(record: DynamoDBRecord): string {
  const seconds = Math.floor(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0));
  const sequence = BigInt(record.dynamodb?.SequenceNumber ?? '0');
  const hash = createHash('sha256')
    .update(record.eventID ?? '')
    .digest('hex')
    .slice(0, 6);
  return `evt_${seconds.toString(36).padStart(7, '0')}${sequence.toString(36).padStart(26, '0')}${hash}`;
}

/** The fan-out's reader (stream-readers.ts) reads the records of the entities whose changes are events. */
export const webhookEventsReading: StreamReading = {
  name: 'Webhook fan-out',
  entities: [ideaChanges.entity, voteChanges.entity, commentChanges.entity, finishedResponses.entity, webhookLifecycle.entity],
};

/**
 * An id of the same shape for an event no stream record makes (the test event): its second, then
 * random digits, so it sorts by time among the others and never meets one of them.
 */
export function newEventId(nowMs = Date.now()): string {
  const seconds = Math.floor(nowMs / 1000)
    .toString(36)
    .padStart(7, '0');
  const random = [...randomBytes(26)].map((byte) => (byte % 36).toString(36)).join('');
  return `evt_${seconds}${random}${randomBytes(3).toString('hex')}`;
}

/** The body of an idea event: identifiers, and what its kind adds (issue 39: votes, comments, merges, status messages). */
function ideaEventOf(record: DynamoDBRecord, change: IdeaChange): WebhookEvent {
  const { kind, ideaId, workspace, timestamp } = change;
  const id = eventIdOf(record);
  const data = { ideaId, workspace };
  switch (kind) {
    case 'status_changed':
      return {
        id,
        type: 'idea.status_changed',
        timestamp,
        data: {
          ...data,
          previousStatus: change.previousStatus ?? null,
          status: change.status ?? null,
          statusMessage: change.statusMessage ?? null,
          statusMessageAr: change.statusMessageAr ?? null,
          voterCount: change.voterCount ?? 0,
        },
      };
    case 'voted':
      return { id, type: 'idea.voted', timestamp, data: { ...data, voteId: change.voteId ?? '', importance: change.importance ?? 'nice' } };
    case 'unvoted':
      return { id, type: 'idea.unvoted', timestamp, data: { ...data, voteId: change.voteId ?? '' } };
    case 'commented':
      return {
        id,
        type: 'idea.commented',
        timestamp,
        data: { ...data, commentId: change.commentId ?? '', visibility: change.visibility ?? 'public' },
      };
    case 'merged':
      return { id, type: 'idea.merged', timestamp, data: { ...data, mergedInto: change.mergedInto ?? '' } };
    case 'unmerged':
      return { id, type: 'idea.unmerged', timestamp, data: { ...data, unmergedFrom: change.unmergedFrom ?? '' } };
    default:
      return { id, type: `idea.${kind}`, timestamp, data };
  }
}

/** The webhook event a stream record means, or null for anything that is not an event. */
export function eventFromStreamRecord(record: DynamoDBRecord): WebhookEvent | null {
  const finished = finishedResponses.changeOf(record);
  if (finished) {
    const { workspace, surveyId, versionId, responseId, timestamp } = finished;
    return { id: eventIdOf(record), type: 'survey.response.finished', timestamp, data: { workspace, surveyId, versionId, responseId } };
  }
  const change = ideaChanges.changeOf(record) ?? voteChanges.changeOf(record) ?? commentChanges.changeOf(record);
  return change ? ideaEventOf(record, change) : null;
}

/** The permission beyond the route's own that subscribing to an event kind needs: its events reveal that area's activity. */
const EVENT_PERMISSIONS: Partial<Record<WebhookEventType, Permission>> = { 'survey.response.finished': 'survey-responses:read' };

/** 403 `missing_permission` when the key may not read what one of `events` reveals. */
export function assertMaySubscribe(auth: AuthContext, events: readonly WebhookEventType[] | undefined): void {
  for (const event of events ?? []) {
    const needed = EVENT_PERMISSIONS[event];
    if (needed && !holds(auth, needed)) {
      throw new ForbiddenError('missing_permission', `Subscribing to ${event} needs the permission ${needed}`);
    }
  }
}
