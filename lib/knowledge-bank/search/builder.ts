/**
 * Brings a workspace's search index up to date with the articles a batch of stream records
 * touched: the stored index is loaded, each touched article's documents are replaced by what the
 * table holds now (so replays and out-of-date records converge on the current state), and the
 * index is saved back. With no index yet (or one of an older format) the whole workspace is built.
 */

import { fetchIndex, saveIndex } from './index-store.ts';
import { allPublishedDocuments, currentDocuments } from './published-articles.ts';
import { articleCount, compact, createIndex, replaceArticle } from './search-index.ts';

export interface BuildResult {
  workspace: string;
  full: boolean;
  changedArticles: number;
  articles: number;
  bytes: number;
}

export async function updateSearchIndex(workspace: string, articleIds: ReadonlySet<string>): Promise<BuildResult> {
  const stored = await fetchIndex(workspace);
  if (stored.kind !== 'loaded') {
    const index = createIndex(await allPublishedDocuments(workspace));
    const { bytes } = await saveIndex(workspace, index);
    return { workspace, full: true, changedArticles: articleIds.size, articles: articleCount(index), bytes };
  }
  const { index } = stored;
  for (const [articleId, documents] of await currentDocuments(workspace, articleIds)) replaceArticle(index, articleId, documents);
  await compact(index);
  const { bytes } = await saveIndex(workspace, index);
  return { workspace, full: false, changedArticles: articleIds.size, articles: articleCount(index), bytes };
}
