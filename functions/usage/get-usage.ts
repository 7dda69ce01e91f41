/** GET /usage: the workspace's usage and its cost, by hour or day. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getUsage } from '../../lib/usage/commands/get-usage.ts';
import { getUsage as route } from '../../lib/usage/routes.ts';

export const handler = apiHandler(route).handler(async ({ query, auth }) => ({
  body: { ok: true, usage: await getUsage(auth.workspace.slug, query) },
}));
