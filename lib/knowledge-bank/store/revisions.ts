/**
 * Revisions: `KBREV#` content items, numbered 1…latestRevision and never changed or deleted while
 * the article exists, so a page of them is a known range of numbers.
 */

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, type Item } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { workspacePk } from '../../platform/data/keys.ts';
import type { PageKey, PageStart } from '../../platform/pagination.ts';
import { kbArticleEntity, kbContentEntity } from '../entities.ts';
import type { ArticleItem } from '../record.ts';

/**
 * One page of an article's revisions, newest first. Revisions are numbered 1…latestRevision and
 * never deleted, so a page is a known range of numbers whether it starts at an offset or after a
 * cursor's revision: either way the Query reads only the page.
 */
export async function readRevisionPage(
  workspace: string,
  meta: ArticleItem,
  { limit, offset, after }: PageStart,
): Promise<{ items: Item[]; total: number; hasMore: boolean; lastKey: PageKey | undefined; returned: number }> {
  const total = meta.latestRevision;
  if (after && typeof after.revision !== 'number') throw new Error('A cursor for revisions named no revision');
  const newest = after ? Math.min(total, Number(after.revision) - 1) : total - offset;
  if (newest < 1) return { items: [], total, hasMore: false, lastKey: undefined, returned: 0 };
  const oldest = Math.max(1, newest - limit + 1);
  const { Items = [] } = await dynamo.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: {
        ':pk': workspacePk(workspace),
        ':from': kbContentEntity.keys.revision(workspace, meta.id, oldest).sk,
        ':to': kbContentEntity.keys.revision(workspace, meta.id, newest).sk,
      },
      ProjectionExpression: 'revision, publishedAt, publishedBy, titleEn, titleAr, summaryEn, summaryAr',
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return { items: Items, total, hasMore: oldest > 1, lastKey: { revision: oldest }, returned: Items.length };
}

/** The metadata and one revision (one BatchGet); null when the article is absent, `revision` null when that revision is. */
export async function findRevision(
  workspace: string,
  id: string,
  revision: number,
): Promise<{ meta: ArticleItem; revision: Item | null } | null> {
  const [meta, stored] = await getMany([
    kbArticleEntity.keys.article(workspace, id),
    kbContentEntity.keys.revision(workspace, id, revision),
  ]);
  if (!meta) return null;
  return { meta: meta as unknown as ArticleItem, revision: stored ?? null };
}
