/**
 * Articles: the `KBART#` metadata item (small, listed by one Query) beside its content items (draft,
 * live, revisions: compressed, read by key), and what every write of them conditions on. find:
 * 1 BatchGet (metadata + content). list: 1 Query of the metadata items.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, type Item, type TableKey } from '../../platform/data/batch.ts';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import type { TransactionCancelledError, TransactWrite } from '../../platform/data/transact.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { kbArticleEntity, kbContentEntity } from '../entities.ts';
import { articleNotFound } from '../errors.ts';
import { type ArticleItem, type ArticleWithDigest, contentOf, type StoredContent } from '../record.ts';
import { queryPrefix } from './items.ts';

/** The name of the metadata item in every transaction that rewrites it. */
export const ARTICLE = 'article';

export function contentPut(key: TableKey, articleId: string, bytes: Uint8Array, extra: Item = {}): TransactWrite {
  return { Put: { TableName: tableName, Item: { ...key, entity: kbContentEntity.name, articleId, content: bytes, ...extra } } };
}

/** A failed condition on the article's metadata item (named `article`): gone → 404, else → 409 version_conflict. */
export function metaFailure(error: TransactionCancelledError): Error {
  const version = error.current(ARTICLE)?.version;
  return version === undefined ? articleNotFound() : new VersionConflictError(Number(version));
}

export function articlePut(workspace: string, item: ArticleItem, condition: Item): TransactWrite {
  return {
    Put: {
      TableName: tableName,
      Item: { ...kbArticleEntity.keys.article(workspace, item.id), entity: kbArticleEntity.name, ...item },
      ...condition,
    },
  };
}

/** Condition for rewriting a metadata item read at `version` (and meeting the client's If-Match). */
export function sameVersion(version: number): Item {
  return {
    ConditionExpression: '#version = :readVersion',
    ExpressionAttributeNames: { '#version': 'version' },
    ExpressionAttributeValues: { ':readVersion': version },
  };
}

/** The metadata item read, or the 404 / 409 (If-Match) the client gets. */
export function requireMeta(meta: Item | undefined, precondition: VersionPrecondition): ArticleWithDigest {
  if (!meta) throw articleNotFound();
  const article = meta as unknown as ArticleWithDigest;
  if (!meetsPrecondition(precondition, article.version)) throw new VersionConflictError(article.version);
  return article;
}

/** The metadata and one view's content in one BatchGet; null when either is absent. */
export async function findArticle(
  workspace: string,
  id: string,
  view: 'draft' | 'live',
): Promise<{ item: ArticleItem; content: StoredContent } | null> {
  const [meta, content] = await getMany([
    kbArticleEntity.keys.article(workspace, id),
    view === 'draft' ? kbContentEntity.keys.draft(workspace, id) : kbContentEntity.keys.live(workspace, id),
  ]);
  if (!meta || !content) return null;
  return { item: meta as unknown as ArticleItem, content: contentOf(content) };
}

/** The metadata item alone (one GetItem); null when absent. */
export async function findArticleItem(workspace: string, id: string): Promise<ArticleItem | null> {
  const { Item } = await dynamo.send(
    new GetCommand({ TableName: tableName, Key: kbArticleEntity.keys.article(workspace, id), ConsistentRead: true }),
  );
  return (Item as ArticleItem | undefined) ?? null;
}

/** Every article's metadata (small items; content is elsewhere). */
export async function listArticleItems(workspace: string): Promise<ArticleItem[]> {
  return (await queryPrefix(workspace, kbArticleEntity.keys.prefix)) as unknown as ArticleItem[];
}
