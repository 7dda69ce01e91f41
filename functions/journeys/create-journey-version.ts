/** POST /journeys/{journeyId}/versions: a new draft branched from any version. */
import { createJourneyVersion, replayedVersion } from '../../lib/journeys/commands/create-journey-version.ts';
import { createJourneyVersion as route } from '../../lib/journeys/routes.ts';
import type { JourneyVersion } from '../../lib/journeys/schemas.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';

const answer = (version: JourneyVersion, replayed = false) => ({
  body: { ok: true as const, version },
  headers: { ETag: etagOf(version.revision), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, idempotency, auth }) => {
    const { version, replayed } = await createJourneyVersion(auth.workspace.slug, params.journeyId, body, auth.key.id, idempotency);
    return answer(version, replayed);
  },
  // The remembered response names the version; a replay reads it as it is now (404 once deleted).
  { replay: async (remembered, { params, auth }) => answer(await replayedVersion(auth.workspace.slug, params.journeyId, remembered)) },
);
