/** POST /journeys/{journeyId}/micro-journeys: a micro journey zooming into that journey, with its first draft. */
import type { CreatedJourney } from '../../lib/journeys/commands/create-journey.ts';
import { createMicroJourney } from '../../lib/journeys/commands/create-micro-journey.ts';
import { createMicroJourney as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';

const answer = (created: CreatedJourney, replayed = false) => ({
  body: { ok: true as const, ...created },
  headers: { ETag: etagOf(created.version.revision), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, idempotency, auth }) => {
    const { response, replayed } = await createMicroJourney(auth.workspace.slug, params.journeyId, body, auth.key.id, idempotency);
    return answer(response, replayed);
  },
  { replay: (created) => answer(created as CreatedJourney) },
);
