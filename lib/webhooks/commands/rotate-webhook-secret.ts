/**
 * POST /webhooks/{id}/rotate: a new secret (shown this once); the webhook is disabled until enabled
 * again with the new secret in place, and holds what it misses meanwhile (../disabling.ts).
 */
import { disableOnRequest } from '../disabling.ts';
import type { Webhook } from '../record.ts';

export async function rotateWebhookSecret(workspace: string, id: string): Promise<{ webhook: Webhook; secret: string }> {
  const rotated = await disableOnRequest(workspace, id, { code: 'rotated' });
  if (rotated === 'unchanged' || !rotated.secret) throw new Error('A rotation always writes a new secret');
  return { webhook: rotated.webhook, secret: rotated.secret };
}
