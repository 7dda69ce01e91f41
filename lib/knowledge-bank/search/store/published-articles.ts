/**
 * Reading what the index is built from: an article's metadata item and its live content item
 * (lib/knowledge-bank/record.ts describes both). Strongly consistent, so a build triggered by a
 * stream record sees at least that change. (The live content of a page of results, where titles and
 * snippets come from, is read by live-contents.ts.)
 */
import { getMany, type TableKey } from '../../../platform/data/batch.ts';
import { tableName } from '../../../platform/data/client.ts';
import { workspacePk } from '../../../platform/data/keys.ts';
import { queryAll } from '../../../platform/data/query-all.ts';
import { kbArticleEntity, kbContentEntity } from '../../entities.ts';
import { type ArticleItem, contentOf } from '../../record.ts';
import { type SearchDocument, searchDocumentsOf } from '../documents.ts';

type Item = Record<string, unknown>;

/** The items of `keyList` by sort key (the data kit's getMany: 100 per call, bounded retries). */
async function getItems(keyList: readonly TableKey[]): Promise<Map<string, Item>> {
  const found = new Map<string, Item>();
  for (const item of await getMany(keyList)) if (item) found.set(item.sk as string, item);
  return found;
}

function documentsOf(meta: ArticleItem | undefined, live: Item | undefined): SearchDocument[] {
  if (meta?.status !== 'published' || !live) return [];
  return searchDocumentsOf(meta, contentOf(live));
}

/** The current search documents of each article (none when it is not published or is gone). */
export async function currentDocuments(workspace: string, articleIds: Iterable<string>): Promise<Map<string, SearchDocument[]>> {
  const ids = [...articleIds];
  const items = await getItems(
    ids.flatMap((id) => [kbArticleEntity.keys.article(workspace, id), kbContentEntity.keys.live(workspace, id)]),
  );
  return new Map(
    ids.map((id) => [
      id,
      documentsOf(
        items.get(kbArticleEntity.keys.article(workspace, id).sk) as ArticleItem | undefined,
        items.get(kbContentEntity.keys.live(workspace, id).sk),
      ),
    ]),
  );
}

/** Every published article's documents: for a first build, or one after the index format changed. */
export async function allPublishedDocuments(workspace: string): Promise<SearchDocument[]> {
  const metas = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#status = :published',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': workspacePk(workspace), ':prefix': kbArticleEntity.keys.prefix, ':published': 'published' },
    ConsistentRead: true,
  });
  const live = await getItems(metas.map((meta) => kbContentEntity.keys.live(workspace, meta.id as string)));
  return metas.flatMap((meta) =>
    documentsOf(meta as unknown as ArticleItem, live.get(kbContentEntity.keys.live(workspace, meta.id as string).sk)),
  );
}
