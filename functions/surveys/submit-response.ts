/** POST /surveys/{id}/responses: a response pinned to the version published now; one transaction on a warm instance. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { type SurveyResponse, submitResponse } from '../../lib/surveys/commands/submit-response.ts';
import { submitSurveyResponse as route } from '../../lib/surveys/responses/routes.ts';

const answer = (response: SurveyResponse, replayed: boolean) => ({
  body: { ok: true as const, response },
  headers: { ETag: etagOf(response.revision), ...replayHeaders(replayed) },
});

// A retry under the same Idempotency-Key gets the response as first stored, before any check (the survey may have closed since).
export const handler = apiHandler(route).handler(
  async ({ params, body, auth, idempotency }) => {
    const { response, replayed } = await submitResponse(auth.workspace.slug, params.id, body, idempotency);
    return answer(response, replayed);
  },
  { replay: (response) => answer(response as SurveyResponse, false) },
);
