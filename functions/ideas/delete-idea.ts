/** DELETE /ideas/{id}: delete an idea (optionally only at the version in If-Match) and uncount it. */
import { deleteIdea } from '../../lib/ideas/commands/delete-idea.ts';
import { deleteIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ params, precondition, auth }) => {
  await deleteIdea(auth.workspace.slug, params.id, precondition);
  return { body: { ok: true } };
});
