/** GET /webhooks: every webhook of the workspace (at most 50, one Query page), without secrets, oldest first. */
export { listWebhooks } from '../store/webhooks.ts';
