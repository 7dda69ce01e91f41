/** PATCH /surveys/designs/{designId}: changes a design in one conditional UpdateItem. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { updateDesign } from '../../lib/surveys/commands/update-design.ts';
import { updateSurveyDesign as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, body, auth }) => ({
  body: { ok: true, design: await updateDesign(auth.workspace.slug, params.designId, body) },
}));
