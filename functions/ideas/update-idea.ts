/** PATCH /ideas/{id}: change some fields in one conditional write, with no read before it. */

import { assertConfiguredLabels, isEmptyPatch, patchOf } from '../../lib/ideas/changes.ts';
import { updateIdea as route } from '../../lib/ideas/routes.ts';
import { findIdea, ideaNotFound, updateIdea as storeChanges } from '../../lib/ideas/store.ts';
import { meetsPrecondition } from '../../lib/platform/data/conditions.ts';
import { VersionConflictError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function updateIdea({ params, body, precondition, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertConfiguredLabels(auth.workspace.ideaLabels, body);
  if (isEmptyPatch(body)) {
    // Nothing to change, so no new version: answer with the idea as it is, preconditions included.
    const idea = await findIdea(auth.workspace.slug, params.id);
    if (!idea) throw ideaNotFound();
    if (!meetsPrecondition(precondition, idea.version)) throw new VersionConflictError(idea.version);
    return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
  }
  const idea = await storeChanges(auth.workspace.slug, params.id, patchOf(body), precondition, auth.key.id);
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version) } };
}

export const handler = apiHandler(route).handler(updateIdea);
