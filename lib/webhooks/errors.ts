/** The Webhooks area's own error answers, on the platform's typed errors, and the codes it adds to the catalog. */
import { defineErrorCodes } from '../platform/error-codes.ts';
import { BadRequestError, ConflictError, NotFoundError } from '../platform/errors.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './record.ts';

export const webhookErrorCodes = defineErrorCodes({
  400: {
    webhook_limit_reached: 'The workspace already has 50 webhooks: delete one first',
    webhook_url_not_allowed:
      'The SSRF guard refused the URL: not https, with credentials, or resolving to a loopback, private, link-local, CGNAT, multicast ' +
      'or reserved address',
    webhook_url_unresolvable: 'The URL’s host does not resolve',
    webhook_verification_failed:
      'The receiver did not answer the verification event with a 2xx within 10 s (the message says what it got); the webhook stays disabled',
    webhook_disabled: 'The webhook is disabled: enable it first',
  },
  409: {
    recovery_in_progress: 'A recovery of this webhook is under way: one runs at a time (read it at the Location its POST answered)',
    webhook_changed: 'The webhook’s URL or secret changed while its receiver was being verified',
    delivery_in_progress: 'An attempt of this delivery is being made at this moment',
  },
});

/** Another workspace's id answers exactly like one that never existed. */
export const webhookNotFound = () => new NotFoundError('not_found', 'No webhook with this id in this workspace');
export const deliveryNotFound = () => new NotFoundError('not_found', 'No delivery with this id for this webhook');
export const webhookLimitReached = () =>
  new BadRequestError(
    'webhook_limit_reached',
    `A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one before creating another`,
  );
export const webhookUrlNotAllowed = (reason: string) =>
  new BadRequestError('webhook_url_not_allowed', `The webhook URL is not allowed: ${reason}`);
export const webhookUrlUnresolvable = (reason: string) =>
  new BadRequestError('webhook_url_unresolvable', `The webhook URL is not reachable: ${reason}`);
export const webhookVerificationFailed = (reason: string | null) =>
  new BadRequestError(
    'webhook_verification_failed',
    `The receiver did not accept the verification event (${reason}); the webhook stays disabled`,
  );
export const webhookDisabled = (doing: 'redelivering to it' | 'sending it a test event' | 'recovering its deliveries') =>
  new BadRequestError('webhook_disabled', `Enable the webhook before ${doing}`);
export const recoveryInProgress = (recoveryId: string) =>
  new ConflictError('recovery_in_progress', `Recovery ${recoveryId} of this webhook is under way; one runs at a time`);
export const recoveryNotFound = () => new NotFoundError('not_found', 'No such recovery of this webhook in this workspace');
export const webhookChanged = () =>
  new ConflictError('webhook_changed', 'The webhook URL or secret changed during verification; enable it again');
export const deliveryInProgress = () =>
  new ConflictError('delivery_in_progress', 'An attempt of this delivery is being made right now; try again in a minute');
