/**
 * GET search: full-text search of the workspace's published articles. The hits come from the
 * instance's copy of the workspace's index (at most one conditional S3 GET a second, see
 * index-cache.ts); their titles and snippets from the live content of the page of results, which the
 * instance keeps by live revision (store/live-contents.ts): one BatchGet of the articles' metadata, the
 * search's only DynamoDB round trip beyond authorisation on a warm instance (a second one reads live
 * content it has not read yet), and none when nothing matches. (index-cache.ts has the one exception:
 * a workspace with no index is indexed from the table.)
 */
import { searchIndexOf } from '../search/index-cache.ts';
import { resultsOf, type SearchResultView } from '../search/results.ts';
import { type SearchQuery, searchIndex } from '../search/search-index.ts';
import { liveContentsOf } from '../search/store/live-contents.ts';

export async function searchArticles(workspace: string, query: SearchQuery): Promise<{ results: SearchResultView[]; total: number }> {
  const { hits, total } = searchIndex(await searchIndexOf(workspace), query);
  const contents = await liveContentsOf(
    workspace,
    hits.map((hit) => hit.articleId),
  );
  return { results: resultsOf(hits, contents), total };
}
