/** PUT /ideas/{id}: replace the writable fields, optionally only at the version in If-Match. */

import { assertConfiguredLabels, replacementOf } from '../../lib/ideas/changes.ts';
import { replaceIdea as route } from '../../lib/ideas/routes.ts';
import { updateIdea as storeChanges } from '../../lib/ideas/store.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function replaceIdea({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertConfiguredLabels(auth.workspace.ideaLabels, body);
  const idea = await storeChanges(auth.workspace.slug, params.id, replacementOf(body), precondition, auth.key.id);
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
}

export const handler = apiHandler(route).handler(replaceIdea);
