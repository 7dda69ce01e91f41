/** GET /sops/{id}: one SOP, with its review comments for keys that work on SOPs. */

import { NotFoundError } from '../../lib/platform/errors.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';
import { getSop as route } from '../../lib/sops/routes.ts';
import { findSop, findSopWithComments } from '../../lib/sops/store/sops.ts';
import { seesUnpublishedSops } from '../../lib/sops/visibility.ts';

export async function getSop({ auth, params }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const slug = auth.workspace.slug;
  if (seesUnpublishedSops(auth)) {
    const found = await findSopWithComments(slug, params.id);
    if (!found) throw new NotFoundError('not_found', 'No SOP with this id exists in this workspace');
    return { body: { ok: true, sop: found.sop, comments: found.comments } };
  }
  // A read-only key gets the SOP item alone (its comments are never read) and only once published;
  // anything else is indistinguishable from an SOP that does not exist.
  const sop = await findSop(slug, params.id);
  if (sop?.status !== 'published') throw new NotFoundError('not_found', 'No SOP with this id exists in this workspace');
  return { body: { ok: true, sop, comments: [] } };
}

export const handler = apiHandler(route).handler(getSop);
