/** GET /me: confirms the key works for the selected workspace, and what it may do there. */
import { getMe } from '../../lib/introduction/commands/get-me.ts';
import { getMe as route } from '../../lib/introduction/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => ({ body: { ok: true, data: getMe(auth) } }));
