/** DELETE /ideas/{id}/votes/{voteId}: the voter no longer counts (nor on the ideas merged into this one). */
import { deleteIdeaVote } from '../../lib/ideas/commands/delete-idea-vote.ts';
import { deleteIdeaVote as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await deleteIdeaVote(auth.workspace.slug, params.id, params.voteId, precondition);
  return { body: { ok: true } };
});
