/**
 * POST /webhooks/{id}/disable: no more deliveries until enabled again, and nothing dropped: its
 * waiting retries and every event it misses are held (../disabling.ts, the path a receiver's 410 and
 * the failure window take too). A webhook disabled already is left as it is.
 */
import { disableOnRequest } from '../disabling.ts';
import type { Webhook } from '../record.ts';

export async function disableWebhook(workspace: string, id: string): Promise<Webhook> {
  const disabled = await disableOnRequest(workspace, id, { code: 'manual' });
  if (disabled === 'unchanged') throw new Error('A disable request is never a URL change');
  return disabled.webhook;
}
