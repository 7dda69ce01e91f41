/** POST /surveys/{id}/exports: the export record, then the job on the export queue (a failed queuing is a 502). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { API_PREFIX } from '../../lib/platform/route.ts';
import { createSurveyExport, rememberedExport } from '../../lib/surveys/commands/create-survey-export.ts';
import { createSurveyExport as route } from '../../lib/surveys/exports/routes.ts';

const answer = (surveyId: string, created: ReturnType<typeof rememberedExport>, replayed: boolean) => ({
  body: { ok: true as const, export: created },
  headers: { Location: `${API_PREFIX}/surveys/${surveyId}/exports/${created.id}`, ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, auth, idempotency }) => {
    const created = await createSurveyExport(auth.workspace.slug, params.id, body, idempotency);
    return answer(params.id, created.export, created.replayed);
  },
  { replay: (record, { params }) => answer(params.id, rememberedExport(record), false) },
);
