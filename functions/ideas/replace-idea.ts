/** PUT /ideas/{id}: replace the writable fields, optionally only at the version in If-Match. */
import { replaceIdea } from '../../lib/ideas/commands/replace-idea.ts';
import { replaceIdea as route } from '../../lib/ideas/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';

export const handler = apiHandler(route).handler(async ({ params, body, precondition, auth }) => {
  const idea = await replaceIdea(auth.workspace, params.id, body, precondition, auth.key.id);
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
});
