/** POST /ideas: submit an idea, answered with its possible duplicates; safe to retry with an Idempotency-Key. */
import { createIdea, type Idea, possibleDuplicatesOf, type SimilarIdea } from '../../lib/ideas/commands/create-idea.ts';
import { createIdea as route } from '../../lib/ideas/routes.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiResult } from '../../lib/platform/route.ts';

const answer = (idea: Idea, possibleDuplicates: SimilarIdea[] | undefined, replayed: boolean): ApiResult<typeof route> => ({
  body: { ok: true, data: idea, ...(possibleDuplicates && { possibleDuplicates }) },
  headers: { ETag: etagOf(idea.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, idempotency, auth }) => {
    const { idea, replayed, possibleDuplicates } = await createIdea(auth.workspace, body, auth.key.id, idempotency);
    return answer(idea, possibleDuplicates, replayed);
  },
  { replay: async (idea, { auth }) => answer(idea as Idea, await possibleDuplicatesOf(auth.workspace.slug, idea as Idea), false) },
);
