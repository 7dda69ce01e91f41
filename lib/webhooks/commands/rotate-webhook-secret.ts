/** POST /webhooks/{id}/rotate: a new secret (shown this once) in one conditional write; the webhook is disabled until enabled again. */
export { rotateWebhookSecret } from '../store/webhooks.ts';
