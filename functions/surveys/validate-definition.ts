/** POST /surveys/validate: a definition's issues, as a save would report them; nothing is stored. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { validateDefinition } from '../../lib/surveys/commands/validate-definition.ts';
import { validateSurveyDefinition as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(async ({ body }) => ({ body: { ok: true, issues: validateDefinition(body.definition) } }));
