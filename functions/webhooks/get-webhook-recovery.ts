/** GET /webhooks/{id}/recoveries/{recoveryId}: a recovery's status and counts. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getWebhookRecovery } from '../../lib/webhooks/commands/get-webhook-recovery.ts';
import { getWebhookRecovery as route } from '../../lib/webhooks/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth, params }) => ({
  body: { ok: true, recovery: await getWebhookRecovery(auth.workspace.slug, params.id, params.recoveryId) },
}));
