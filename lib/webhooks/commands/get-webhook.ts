/** GET /webhooks/{id}: one webhook, without its secret; 404 when the workspace has none under this id. */
export { getWebhook } from '../store/webhooks.ts';
