/** POST /journeys: a macro journey and its first draft; safe to retry with an Idempotency-Key. */
import { type CreatedJourney, createJourney } from '../../lib/journeys/commands/create-journey.ts';
import { createJourney as route } from '../../lib/journeys/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';

const answer = (created: CreatedJourney, replayed = false) => ({
  body: { ok: true as const, ...created },
  headers: { ETag: etagOf(created.version.revision), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, idempotency, auth }) => {
    const { response, replayed } = await createJourney(auth.workspace.slug, body, auth.key.id, idempotency);
    return answer(response, replayed);
  },
  { replay: (created) => answer(created as CreatedJourney) },
);
