/**
 * GET /knowledge-bank/search: full-text search of the workspace's published articles. The hits come
 * from the instance's copy of the workspace's index (at most one conditional S3 GET a second, see
 * index-cache.ts); their titles and snippets from the live content of the page of results, which the
 * instance keeps by live revision (live-contents.ts): one BatchGet of the articles' metadata, the
 * search's only DynamoDB round trip beyond authorisation on a warm instance (a second one reads live
 * content it has not read yet), and none when nothing matches. (index-cache.ts has the one exception:
 * a workspace with no index is indexed from the table.)
 */
import { searchIndexOf } from '../../lib/knowledge-bank/search/index-cache.ts';
import { liveContentsOf } from '../../lib/knowledge-bank/search/live-contents.ts';
import { resultsOf } from '../../lib/knowledge-bank/search/results.ts';
import { searchKnowledgeBank as route } from '../../lib/knowledge-bank/search/routes.ts';
import { searchIndex } from '../../lib/knowledge-bank/search/search-index.ts';
import { apiHandler } from '../../lib/platform/http/api-handler.ts';
import type { ApiRequest, ApiResult } from '../../lib/platform/route.ts';

export async function searchArticles({ query, auth }: ApiRequest<typeof route>): Promise<ApiResult<typeof route>> {
  const workspace = auth.workspace.slug;
  const { hits, total } = searchIndex(await searchIndexOf(workspace), query);
  const contents = await liveContentsOf(
    workspace,
    hits.map((hit) => hit.articleId),
  );
  return { body: { ok: true, results: resultsOf(hits, contents), total } };
}

export const handler = apiHandler(route).handler(searchArticles);
