/** PATCH /ideas/{id}: change some fields in one conditional write, with no read before it. */
import { updateIdea } from '../../lib/ideas/commands/update-idea.ts';
import { updateIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const idea = await updateIdea(auth.workspace, params.id, body, precondition, auth.key.id);
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
});
