/** POST /journeys/{journeyId}/versions: a new draft branched from any version. */

import { createJourneyVersion as route } from '../../lib/journeys/routes.ts';
import { branchVersion } from '../../lib/journeys/store/drafts.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createJourneyVersion({
  params,
  body,
  idempotency,
  auth,
}: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { version, replayed } = await branchVersion(
    auth.workspace.slug,
    params.journeyId,
    body.fromVersionId,
    body.label,
    auth.key.id,
    idempotency,
  );
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(createJourneyVersion);
