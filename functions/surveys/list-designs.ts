/** GET /surveys/designs: the workspace's designs (GetItem). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { listDesigns } from '../../lib/surveys/commands/list-designs.ts';
import { listSurveyDesigns as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => ({
  body: { ok: true, designs: await listDesigns(auth.workspace.slug) },
}));
