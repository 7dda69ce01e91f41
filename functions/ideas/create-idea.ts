/** POST /ideas: submit an idea; safe to retry with an Idempotency-Key. */

import { assertConfiguredLabels } from '../../lib/ideas/changes.ts';
import { createIdea as route } from '../../lib/ideas/routes.ts';
import type { Idea } from '../../lib/ideas/schemas.ts';
import { createIdea as storeIdea } from '../../lib/ideas/store.ts';
import { replayHeaders } from '../../lib/platform/data/idempotency.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import { etagOf } from '../../lib/platform/http/conditional-request.ts';
import { countBusinessEvent } from '../../lib/platform/metrics.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function createIdea({ body, idempotency, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  assertConfiguredLabels(auth.workspace.ideaLabels, body);
  const { idea, replayed } = await storeIdea(auth.workspace.slug, body, { keyId: auth.key.id, idempotency });
  if (!replayed) countBusinessEvent('IdeasCreated');
  return answer(idea, replayed);
}

function answer(idea: Idea, replayed: boolean): ApiResult<typeof route> {
  return { body: { ok: true, data: idea }, headers: { ETag: etagOf(idea.version), ...replayHeaders(replayed) } };
}

export const handler = apiHandler(route).handler(createIdea, { replay: (idea) => answer(idea as Idea, false) });
