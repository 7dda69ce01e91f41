/** GET /surveys/{id}/exports/{exportId}: the export (GetItem) and, once done, a fresh 15-minute download link. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { getSurveyExport } from '../../lib/surveys/commands/get-survey-export.ts';
import { getSurveyExport as route } from '../../lib/surveys/exports/routes.ts';

export const handler = apiHandler(route).handler(async ({ params, auth }) => ({
  body: { ok: true, export: await getSurveyExport(auth.workspace.slug, params.id, params.exportId) },
}));
