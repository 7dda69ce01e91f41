/** POST /surveys: a draft survey with its first draft version; safe to retry with an Idempotency-Key. */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { type CreatedSurvey, createSurvey } from '../../lib/surveys/commands/create-survey.ts';
import { createSurvey as route } from '../../lib/surveys/routes.ts';

const answer = ({ survey, version, designs }: CreatedSurvey, replayed: boolean) => ({
  body: { ok: true as const, survey, version, designs },
  headers: { ETag: etagOf(survey.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, auth, idempotency }) => {
    const created = await createSurvey(auth.workspace.slug, body, auth.key.id, idempotency);
    return answer(created, created.replayed);
  },
  { replay: (created) => answer(created as CreatedSurvey, false) },
);
