/** GET /surveys/audience-attributes: the catalog targeting rules are checked against (GetItem). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { listAudienceAttributes } from '../../lib/surveys/commands/list-audience-attributes.ts';
import { listAudienceAttributes as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => ({
  body: { ok: true, attributes: await listAudienceAttributes(auth.workspace.slug) },
}));
