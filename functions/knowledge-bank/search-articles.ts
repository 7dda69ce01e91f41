/**
 * GET /knowledge-bank/search: full-text search of the workspace's published articles, answered
 * from the instance's copy of the workspace's index (no DynamoDB call beyond authorisation; at
 * most one conditional S3 GET a second; see index-cache.ts for the one exception, a workspace
 * whose index object does not exist).
 */
import { searchIndexOf } from '../../lib/knowledge-bank/search/index-cache.ts';
import { searchKnowledgeBank as route } from '../../lib/knowledge-bank/search/routes.ts';
import { searchIndex } from '../../lib/knowledge-bank/search/search-index.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function searchArticles({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const { results, total } = searchIndex(await searchIndexOf(auth.workspace.slug), query);
  return { body: { ok: true, results, total } };
}

export const handler = apiHandler(route).handler(searchArticles);
