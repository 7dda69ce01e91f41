/**
 * POST /webhooks/{id}/disable: no more deliveries until enabled again; deliveries waiting for a
 * retry are cancelled at once (../disabling.ts, the path a receiver's 410 Gone takes too).
 */
import { disableAndCancelRetries } from '../disabling.ts';
import type { Webhook } from '../record.ts';

export function disableWebhook(workspace: string, id: string): Promise<Webhook> {
  return disableAndCancelRetries(workspace, id, { by: 'request' });
}
