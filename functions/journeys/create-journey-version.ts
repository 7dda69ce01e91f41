/** POST /journeys/{journeyId}/versions: a new draft branched from any version. */

import { createJourneyVersion as route } from '../../lib/journeys/routes.ts';
import type { JourneyVersion } from '../../lib/journeys/schemas.ts';
import { branchVersion } from '../../lib/journeys/store/drafts.ts';
import { getVersion } from '../../lib/journeys/store/versions.ts';
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
  return answer(version, replayed);
}

function answer(version: JourneyVersion, replayed: boolean): ApiResult<typeof route> {
  return { body: { ok: true, version }, headers: { ETag: etagOf(version.revision), ...replayHeaders(replayed) } };
}

/** The remembered response names the version; a replay reads it as it is now (404 once deleted), as the store's own replay does. */
export const handler = apiHandler(route).handler(createJourneyVersion, {
  replay: async (remembered, { params, auth }) =>
    answer(await getVersion(auth.workspace.slug, params.journeyId, (remembered as { versionId: string }).versionId), false),
});
