/** POST /ideas/{id}/votes: a customer's vote, counted once (201 new, 200 again); safe to retry with an Idempotency-Key. */
import { type VoteAnswer, voteOnIdea } from '../../lib/ideas/commands/vote-on-idea.ts';
import { voteOnIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf, replayHeaders } from '../../lib/platform/http/conditional-request.ts';
import type { ApiResult } from '../../lib/platform/route.ts';

const answer = ({ vote, created }: VoteAnswer, replayed: boolean): ApiResult<typeof route> => ({
  status: created ? 201 : 200,
  body: { ok: true, vote },
  headers: { ETag: etagOf(vote.version), ...replayHeaders(replayed) },
});

export const handler = apiHandler(route).handler(
  async ({ params, body, idempotency, auth }) => {
    const voted = await voteOnIdea(auth.workspace.slug, params.id, body, idempotency);
    return answer(voted.answer, voted.replayed);
  },
  { replay: (remembered) => answer(remembered as VoteAnswer, false) },
);
