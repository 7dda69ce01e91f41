/**
 * Webhook events: their kinds, their payloads, and how a DynamoDB stream record of an idea item
 * becomes one. The contract with the ideas area: an idea is one item with `entity: 'Idea'`,
 * `id`, `workspace`, `status` (optional) and `version` (+1 on every change); create is an INSERT,
 * every update a MODIFY with both images, delete a REMOVE. Anything else in the stream is ignored.
 *
 * Payloads carry identifiers only (and status labels): never a title, description or anything
 * about the submitter, so personal data cannot leak to a receiver.
 */
import { createHash } from 'node:crypto';
import type { AttributeValue, DynamoDBRecord } from 'aws-lambda';

export const WEBHOOK_EVENT_TYPES = ['idea.submitted', 'idea.status_changed', 'idea.updated', 'idea.deleted'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Sent by the enable step only; no webhook subscribes to it. */
export const VERIFICATION_EVENT_TYPE = 'webhook.verification';

export interface IdeaEventData {
  ideaId: string;
  workspace: string;
  previousStatus?: string | null;
  status?: string | null;
}

export interface WebhookEvent {
  /** Stable for the stream record it comes from: retries and duplicate stream deliveries share it. */
  id: string;
  type: WebhookEventType;
  /** When the change was committed. */
  timestamp: string;
  data: IdeaEventData;
}

/** The JSON body every receiver gets. */
export function eventBody(event: Pick<WebhookEvent, 'type' | 'timestamp' | 'data'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
}

type Image = Record<string, AttributeValue> | undefined;

const stringOf = (image: Image, name: string): string | null => image?.[name]?.S ?? null;
const numberOf = (image: Image, name: string): number | null => {
  const n = image?.[name]?.N;
  return n === undefined ? null : Number(n);
};

const isIdea = (image: Image) => stringOf(image, 'entity') === 'Idea';

/**
 * A time-ordered id, derived only from the stream record: the record's creation second, then its
 * sequence number (both fixed-width base 36, so ids sort by time and, within a second, in stream
 * order), then a short hash of the record's eventID for global uniqueness.
 */
export function eventIdOf(record: DynamoDBRecord): string {
  const seconds = Math.floor(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0));
  const sequence = BigInt(record.dynamodb?.SequenceNumber ?? '0');
  const hash = createHash('sha256').update(record.eventID ?? '').digest('hex').slice(0, 6);
  return `evt_${seconds.toString(36).padStart(7, '0')}${sequence.toString(36).padStart(26, '0')}${hash}`;
}

function timestampOf(record: DynamoDBRecord, image: Image): string {
  // The idea's own updatedAt is exact; the stream's creation time is rounded (to the second in
  // AWS, to the minute in DynamoDB Local), so it is only the fallback (and the time of a delete).
  const updatedAt = stringOf(image, 'updatedAt');
  if (updatedAt && !Number.isNaN(Date.parse(updatedAt))) return new Date(updatedAt).toISOString();
  return new Date(Number(record.dynamodb?.ApproximateCreationDateTime ?? 0) * 1000).toISOString();
}

function workspaceOf(image: Image): string | null {
  return stringOf(image, 'workspace') ?? stringOf(image, 'pk')?.replace(/^WS#/, '') ?? null;
}

/** The webhook event a stream record means, or null for anything that is not an idea change. */
export function eventFromStreamRecord(record: DynamoDBRecord): WebhookEvent | null {
  const oldImage = record.dynamodb?.OldImage;
  const newImage = record.dynamodb?.NewImage;
  const id = eventIdOf(record);
  const base = (type: WebhookEventType, image: Image, extra: Partial<IdeaEventData> = {}): WebhookEvent | null => {
    const ideaId = stringOf(image, 'id');
    const workspace = workspaceOf(image);
    if (!ideaId || !workspace) return null;
    return { id, type, timestamp: timestampOf(record, record.eventName === 'REMOVE' ? undefined : image), data: { ideaId, workspace, ...extra } };
  };

  switch (record.eventName) {
    case 'INSERT':
      return isIdea(newImage) ? base('idea.submitted', newImage) : null;
    case 'REMOVE':
      return isIdea(oldImage) ? base('idea.deleted', oldImage) : null;
    case 'MODIFY': {
      if (!isIdea(newImage) || !isIdea(oldImage)) return null;
      const previousStatus = stringOf(oldImage, 'status');
      const status = stringOf(newImage, 'status');
      if (previousStatus !== status) return base('idea.status_changed', newImage, { previousStatus, status });
      // A rewrite that did not bump the version changed nothing the idea's owner would call an edit.
      if (numberOf(oldImage, 'version') === numberOf(newImage, 'version')) return null;
      return base('idea.updated', newImage);
    }
    default:
      return null;
  }
}
