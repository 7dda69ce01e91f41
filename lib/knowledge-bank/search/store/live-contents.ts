/**
 * The live content of a page of search results: where titles and snippets come from (results.ts).
 *
 * Every search of a popular query reads the same articles, and an article's live content is one item:
 * read on every search, a 20 KB live item (2.5 read units eventually consistent) holds all its readers
 * together to 1,200 searches a second (`npm run bench:capacity`, docs/costs.md). So a Lambda instance
 * keeps the live content it has read, by article and live revision (a revision's content never changes),
 * and each search reads only the articles' metadata items: small, whatever the article's length, and
 * naming the live revision. Metadata first, so a result is shown exactly when it was before: an article
 * unpublished or deleted since the instance's index was written has no live revision and is left out.
 * Round trips: one BatchGet (the metadata) on a warm instance, as before; a second one for the live
 * content the instance has not read yet.
 */
import { getMany } from '../../../platform/data/batch.ts';
import { kbArticleEntity, kbContentEntity } from '../../entities.ts';
import { contentOf } from '../../record.ts';
import type { LiveContent } from '../documents.ts';

/** Live contents kept per instance, least recently used dropped first (a page holds at most 50). */
const CACHE_LIMIT = 200;
const cache = new Map<string, LiveContent>();

const cacheKey = (workspace: string, articleId: string, revision: number) => `${workspace}#${articleId}#${revision}`;

function remember(key: string, content: LiveContent): void {
  cache.delete(key);
  cache.set(key, content);
  if (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
}

/**
 * The live content of each article of a page of results that is published now, eventually consistent
 * like the index itself. An article with no live revision, or whose live item is gone, is absent.
 */
export async function liveContentsOf(workspace: string, articleIds: readonly string[]): Promise<Map<string, LiveContent>> {
  const contents = new Map<string, LiveContent>();
  if (articleIds.length === 0) return contents;
  const metas = await getMany(
    articleIds.map((id) => kbArticleEntity.keys.article(workspace, id)),
    { consistent: false, attributes: ['status', 'liveRevision'] },
  );
  const unread: { id: string; revision: number }[] = [];
  articleIds.forEach((id, i) => {
    const meta = metas[i];
    if (meta?.status !== 'published' || typeof meta.liveRevision !== 'number') return;
    const cached = cache.get(cacheKey(workspace, id, meta.liveRevision));
    if (cached) {
      remember(cacheKey(workspace, id, meta.liveRevision), cached);
      contents.set(id, cached);
    } else unread.push({ id, revision: meta.liveRevision });
  });
  if (unread.length === 0) return contents;
  const lives = await getMany(
    unread.map(({ id }) => kbContentEntity.keys.live(workspace, id)),
    { consistent: false },
  );
  unread.forEach(({ id }, i) => {
    const item = lives[i];
    if (!item) return;
    const content = contentOf(item);
    // Kept under the revision the live item itself says it holds.
    if (typeof item.revision === 'number') remember(cacheKey(workspace, id, item.revision), content);
    contents.set(id, content);
  });
  return contents;
}
