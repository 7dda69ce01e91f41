/** POST /knowledge-bank/links/check: queues a check of this workspace's external links and answers 202. */
import { requestLinkCheck } from '../../lib/knowledge-bank/commands/request-link-check.ts';
import { checkKnowledgeBankLinks as route } from '../../lib/knowledge-bank/search/routes.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';

export const handler = apiHandler(route).handler(async ({ auth }) => {
  await requestLinkCheck(auth.workspace.slug);
  return { status: 202, body: { ok: true } };
});
