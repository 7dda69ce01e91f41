/** POST /surveys/responses/erase: deletes up to 1,000 responses of one respondent across the workspace's surveys. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { eraseRespondent } from '../../lib/surveys/commands/erase-respondent.ts';
import { eraseSurveyRespondent as route } from '../../lib/surveys/responses/routes.ts';

export const handler = apiHandler(route).handler(async ({ body, auth }) => {
  const { erased, hasMore } = await eraseRespondent(auth.workspace.slug, body);
  return { body: { ok: true, erased, hasMore } };
});
