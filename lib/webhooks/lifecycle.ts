/**
 * What a webhook item's stream record says about the webhook's lifecycle, for the events
 * `webhook.disabled` and `webhook.enabled`: a change of `enabled`, and nothing else (its creation,
 * its deletion, a rename, a failure noted, a recovery's progress on it mean nothing here). Read from
 * the table stream like an idea's changes, so the event follows the committed change whichever way it
 * happened (a request, a 410, the failure window), and its id is as stable as the stream record's.
 */
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamSource } from '../platform/event-sources.ts';
import type { DisabledReason } from './disabled-reason.ts';
import { webhookEntity } from './entities.ts';

export interface LifecycleChange {
  kind: 'disabled' | 'enabled';
  webhookId: string;
  workspace: string;
  name: string;
  /** Why it was disabled (`disabled` only). */
  reason: DisabledReason | null;
  /** When the change was committed. */
  timestamp: string;
}

function lifecycleChangeOf(record: DynamoDBRecord): LifecycleChange | null {
  const before = webhookEntity.fromStreamImage(record.dynamodb?.OldImage);
  const after = webhookEntity.fromStreamImage(record.dynamodb?.NewImage);
  if (!before || !after || (before.enabled === true) === (after.enabled === true)) return null;
  const kind = after.enabled === true ? 'enabled' : 'disabled';
  const reason =
    kind === 'disabled' && after.disabledReason && typeof after.disabledReason === 'object'
      ? (after.disabledReason as DisabledReason)
      : null;
  return {
    kind,
    webhookId: after.id as string,
    workspace: after.workspace as string,
    name: after.name as string,
    reason,
    // Every change of `enabled` sets updatedAt: exact, where the stream's creation time is rounded.
    timestamp: new Date(after.updatedAt as string).toISOString(),
  };
}

/** The webhooks area's own stream source: its webhooks' lifecycle. */
export const webhookLifecycle: StreamSource<LifecycleChange> = { entity: webhookEntity, changeOf: lifecycleChangeOf };
