/** POST /knowledge-bank/links/check: queues a check of this workspace's external links and answers 202. */
import { linkCheckQueueUrl, requestLinkCheck } from '../../lib/knowledge-bank/link-check/queue.ts';
import { checkKnowledgeBankLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

const queueUrl = linkCheckQueueUrl();

export async function requestCheck({ auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  await requestLinkCheck(queueUrl, auth.workspace.slug);
  return { status: 202, body: { ok: true } };
}

export const handler = apiHandler(route).handler(requestCheck);
