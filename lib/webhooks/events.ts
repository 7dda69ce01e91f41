/**
 * Webhook events: their kinds, their payloads, and how a DynamoDB stream record becomes one. Each
 * area says what a record means (lib/ideas/stream.ts `ideaChanges`, lib/surveys/stream.ts
 * `finishedResponses`); anything else is ignored.
 *
 * Payloads carry identifiers only (and status labels): never a title, description, answer or
 * anything about the submitter or respondent, so personal data cannot leak to a receiver.
 */
import { createHash } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import * as z from 'zod/mini';
import { ideaChanges } from '../ideas/stream.ts';
import { type AuthContext, holds } from '../platform/auth/context.ts';
import { ForbiddenError } from '../platform/errors.ts';
import type { StreamReading } from '../platform/event-sources.ts';
import type { Permission } from '../platform/permissions.ts';
import { named, uuid } from '../platform/schemas.ts';
import { finishedResponses } from '../surveys/stream.ts';

export const WEBHOOK_EVENT_TYPES = [
  'idea.submitted',
  'idea.status_changed',
  'idea.updated',
  'idea.deleted',
  'survey.response.finished',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by the enable step only; no webhook subscribes to it. */
export const VERIFICATION_EVENT_TYPE = 'webhook.verification' as const;

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
  'survey.response.finished': eventSchema('SurveyResponseFinishedEvent', 'survey.response.finished', surveyResponseFinishedEventData),
} satisfies Record<WebhookEventType, z.ZodMiniType>;

/** The event the enable step sends, which every receiver must answer 2xx before the webhook is enabled. */
export const verificationEventSchema = eventSchema('WebhookVerificationEvent', VERIFICATION_EVENT_TYPE, verificationEventData);

/** A body a receiver gets, of any kind the pipeline sends. */
export type WebhookEventBody = { [K in WebhookEventType]: z.output<(typeof WEBHOOK_EVENT_SCHEMAS)[K]> }[WebhookEventType];
export type VerificationEventBody = z.output<typeof verificationEventSchema>;

/** An event of the pipeline: its body, and an id stable for the stream record it comes from (retries and duplicates share it). */
export type WebhookEvent = WebhookEventBody & { id: string };

/** The JSON body every receiver gets. */
export function eventBody(event: WebhookEvent): string {
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
  entities: [ideaChanges.entity, finishedResponses.entity],
};

/** The webhook event a stream record means, or null for anything that is not an event. */
export function eventFromStreamRecord(record: DynamoDBRecord): WebhookEvent | null {
  const finished = finishedResponses.changeOf(record);
  if (finished) {
    const { workspace, surveyId, versionId, responseId, timestamp } = finished;
    return { id: eventIdOf(record), type: 'survey.response.finished', timestamp, data: { workspace, surveyId, versionId, responseId } };
  }
  const change = ideaChanges.changeOf(record);
  if (!change) return null;
  const { kind, ideaId, workspace, timestamp } = change;
  if (kind === 'status_changed') {
    const status = { previousStatus: change.previousStatus ?? null, status: change.status ?? null };
    return { id: eventIdOf(record), type: 'idea.status_changed', timestamp, data: { ideaId, workspace, ...status } };
  }
  return { id: eventIdOf(record), type: `idea.${kind}`, timestamp, data: { ideaId, workspace } };
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
