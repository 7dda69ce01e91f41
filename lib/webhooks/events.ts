/**
 * Webhook events: their kinds, their payloads, and how a DynamoDB stream record becomes one. Each
 * area says what a record means (lib/ideas/stream.ts `ideaChangeOf`, lib/surveys/stream.ts
 * `surveyResponseChangeOf`); anything else is ignored.
 *
 * Payloads carry identifiers only (and status labels): never a title, description, answer or
 * anything about the submitter or respondent, so personal data cannot leak to a receiver.
 */
import { createHash } from 'node:crypto';
import type { DynamoDBRecord } from 'aws-lambda';
import { ideaChangeOf } from '../ideas/stream.ts';
import { type AuthContext, holds } from '../platform/auth/context.ts';
import { ForbiddenError } from '../platform/errors.ts';
import type { Permission } from '../platform/permissions.ts';
import { surveyResponseChangeOf } from '../surveys/stream.ts';

export const WEBHOOK_EVENT_TYPES = [
  'idea.submitted',
  'idea.status_changed',
  'idea.updated',
  'idea.deleted',
  'survey.response.finished',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by the enable step only; no webhook subscribes to it. */
export const VERIFICATION_EVENT_TYPE = 'webhook.verification';

interface IdeaEventData {
  ideaId: string;
  workspace: string;
  previousStatus?: string | null;
  status?: string | null;
}

interface SurveyResponseEventData {
  workspace: string;
  surveyId: string;
  versionId: string;
  responseId: string;
}

export interface WebhookEvent {
  /** Stable for the stream record it comes from: retries and duplicate stream deliveries share it. */
  id: string;
  type: WebhookEventType;
  /** When the change was committed. */
  timestamp: string;
  data: IdeaEventData | SurveyResponseEventData;
}

/** The JSON body every receiver gets. */
export function eventBody(event: Pick<WebhookEvent, 'type' | 'timestamp' | 'data'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
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

/** The webhook event a stream record means, or null for anything that is not an event. */
export function eventFromStreamRecord(record: DynamoDBRecord): WebhookEvent | null {
  const finished = surveyResponseChangeOf(record);
  if (finished) {
    const { workspace, surveyId, versionId, responseId, timestamp } = finished;
    return { id: eventIdOf(record), type: 'survey.response.finished', timestamp, data: { workspace, surveyId, versionId, responseId } };
  }
  const change = ideaChangeOf(record);
  if (!change) return null;
  const { kind, ideaId, workspace, timestamp, ...status } = change;
  return { id: eventIdOf(record), type: `idea.${kind}`, timestamp, data: { ideaId, workspace, ...status } };
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
