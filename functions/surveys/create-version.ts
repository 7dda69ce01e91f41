/** POST /surveys/{id}/versions: a new draft copied from a version (default: the published one, else the latest). */
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import { createVersion, type SurveyVersion } from '../../lib/surveys/commands/create-version.ts';
import { createSurveyVersion as route } from '../../lib/surveys/routes.ts';

const answer = (version: SurveyVersion, replayed: boolean) => ({
  body: { ok: true as const, version },
  headers: { ETag: etagOf(version.revision), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, auth, idempotency }) => {
    const { version, replayed } = await createVersion(auth.workspace.slug, params.id, body.fromVersionId, auth.key.id, idempotency);
    return answer(version, replayed);
  },
  { replay: (version) => answer(version as SurveyVersion, false) },
);
