/** POST /ideas: submit an idea, answered with its possible duplicates; safe to retry with an Idempotency-Key. */
import { type CreatedIdea, createIdea, rememberedCreateOf } from '../../lib/ideas/commands/create-idea.ts';
import { createIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import type { ApiResult } from '../../lib/platform/route.ts';

const answer = ({ idea, possibleDuplicates }: CreatedIdea, replayed: boolean): ApiResult<typeof route> => ({
  body: { ok: true, data: idea, ...(possibleDuplicates && { possibleDuplicates }) },
  headers: { ETag: etagOf(idea.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ body, idempotency, auth }) => {
    const { replayed, ...created } = await createIdea(auth.workspace, body, auth.key.id, idempotency);
    return answer(created, replayed);
  },
  // The first answer, possible duplicates included (remembered with the idea); marked a replay by the chain.
  { replay: async (remembered, { auth }) => answer(await rememberedCreateOf(auth.workspace.slug, remembered), false) },
);
