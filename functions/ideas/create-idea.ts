/** POST /ideas: submit an idea; safe to retry with an Idempotency-Key. */
import { createIdea as storeIdea } from '../../lib/data/ideas.ts';
import { apiHandler } from '../../lib/http/api-handler.ts';
import { etagOf, idempotencyKeyOf, requestFingerprint } from '../../lib/http/conditional-request.ts';
import { assertConfiguredLabels } from '../../lib/ideas/rules.ts';
import { createIdea as route } from '../../lib/routes/ideas.ts';
import type { ApiRequest, ApiResult } from '../../lib/routes/types.ts';

export async function createIdea({ body, headers, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const idempotencyKey = idempotencyKeyOf(headers);
  assertConfiguredLabels(auth.workspace.ideaLabels, body);
  const { idea, replayed } = await storeIdea(auth.workspace.slug, body, {
    keyId: auth.key.id,
    idempotency: idempotencyKey ? { key: idempotencyKey, fingerprint: requestFingerprint(body) } : undefined,
  });
  return {
    body: { ok: true, data: idea },
    headers: { ETag: etagOf(idea.version), ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
  };
}

export const handler = apiHandler(route).handler(createIdea);
