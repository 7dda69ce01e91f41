/** POST /journeys/{journeyId}/micro-journeys: a micro journey zooming into that journey, with its first draft. */

import { createMicroJourney as route } from '../../lib/journeys/routes.ts';
import { createJourney as storeJourney } from '../../lib/journeys/store/journeys.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createMicroJourney({ params, body, idempotency, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const creation = {
    kind: 'micro' as const,
    titleEn: body.titleEn ?? body.title ?? null,
    titleAr: body.titleAr ?? null,
    parentJourneyId: params.journeyId,
    stageId: body.stageId ?? null,
  };
  const { response, replayed } = await storeJourney(auth.workspace.slug, creation, auth.key.id, idempotency);
  return answer(response, replayed);
}

type Created = Awaited<ReturnType<typeof storeJourney>>['response'];

function answer(created: Created, replayed: boolean): ApiResult<typeof route> {
  return { body: { ok: true, ...created }, headers: { ETag: etagOf(created.version.revision), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(createMicroJourney, { replay: (created) => answer(created as Created, false) });
