/** The codes the Webhooks area adds to the error catalog (its errors are thrown where they arise). */
import { defineErrorCodes } from '../platform/error-codes.ts';

export const webhookErrorCodes = defineErrorCodes({
  webhook_limit_reached: { status: 400, meaning: 'The workspace already has 50 webhooks: delete one first' },
  webhook_url_not_allowed: {
    status: 400,
    meaning:
      'The SSRF guard refused the URL: not https, with credentials, or resolving to a loopback, private, link-local, CGNAT, multicast ' +
      'or reserved address',
  },
  webhook_url_unresolvable: { status: 400, meaning: 'The URL’s host does not resolve' },
  webhook_verification_failed: {
    status: 400,
    meaning:
      'The receiver did not answer the verification event with a 2xx within 10 s (the message says what it got); the webhook stays disabled',
  },
  webhook_disabled: { status: 400, meaning: 'The webhook is disabled: enable it first' },
  webhook_changed: { status: 409, meaning: 'The webhook’s URL or secret changed while its receiver was being verified' },
  delivery_in_progress: { status: 409, meaning: 'An attempt of this delivery is being made at this moment' },
});
