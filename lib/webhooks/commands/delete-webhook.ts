/** DELETE /webhooks/{id}: the webhook deleted and its place under the workspace limit given back, in one transaction. */
export { deleteWebhook } from '../store/webhooks.ts';
