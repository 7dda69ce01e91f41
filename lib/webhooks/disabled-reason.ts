/**
 * Why a webhook is disabled, as its record (`disabledReason`) and the `webhook.disabled` event say it.
 * A webhook that was never enabled has no reason: it was never verified, so nothing is held for it.
 */
import * as z from 'zod/mini';
import { named, timestamp } from '../platform/schemas.ts';

const failureNote = named(
  'WebhookFailure',
  z.object({
    at: timestamp,
    status: z.nullable(z.int()).register(z.globalRegistry, { description: "The receiver's status; null when it did not answer" }),
    message: z.string(),
  }),
);
export type FailureNote = z.output<typeof failureNote>;

const DISABLED_REASON_CODES = ['failing', 'gone', 'manual', 'rotated', 'url_changed'] as const;
export type DisabledReasonCode = (typeof DISABLED_REASON_CODES)[number];

export const disabledReason = named(
  'WebhookDisabledReason',
  z.object({
    code: z.enum(DISABLED_REASON_CODES).register(z.globalRegistry, {
      description:
        '`failing`: every attempt failed for longer than the failure window (5 days by default); `gone`: the receiver answered 410; ' +
        '`manual`: `POST /webhooks/{id}/disable`; `rotated`: `POST /webhooks/{id}/rotate`; `url_changed`: a PATCH gave it a new URL',
    }),
    since: z.iso.datetime().register(z.globalRegistry, { description: 'When it was disabled: its events are held from then on' }),
    lastErrors: z.array(failureNote).register(z.globalRegistry, {
      description: 'The latest failed attempts before it was disabled (at most 3, newest first; at most one a second is noted)',
    }),
  }),
);
export type DisabledReason = z.output<typeof disabledReason>;

/** The reason a person's action gives (a receiver's failures give theirs: failure-window.ts). */
export function reasonFor(code: Exclude<DisabledReasonCode, 'failing' | 'gone'>, since: string): DisabledReason {
  return { code, since, lastErrors: [] };
}
