/** POST /surveys/designs: a new design, counted against the workspace's limit (one UpdateItem). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { createDesign, type SurveyDesign } from '../../lib/surveys/commands/create-design.ts';
import { createSurveyDesign as route } from '../../lib/surveys/routes.ts';

export const handler = apiHandler(route).handler(
  async ({ body, auth, idempotency }) => {
    const { design, replayed } = await createDesign(auth.workspace.slug, body, idempotency);
    return { body: { ok: true, design }, headers: replayHeaders(replayed) };
  },
  { replay: (design) => ({ body: { ok: true, design: design as SurveyDesign } }) },
);
