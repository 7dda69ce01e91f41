/**
 * Articles: the `KBART#` metadata item (small, listed by one Query) beside its content items (draft,
 * live, revisions: compressed, read by key), and what every write of them conditions on. get:
 * 1 BatchGet (metadata + content). list: 1 Query of the metadata items.
 */

import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from '../../platform/data/client.ts';
import { meetsPrecondition, type VersionPrecondition } from '../../platform/data/conditions.ts';
import { keys } from '../../platform/data/keys.ts';
import { queryAll } from '../../platform/data/query-all.ts';
import { VersionConflictError } from '../../platform/errors.ts';
import { articleNotFound } from '../errors.ts';
import type { ArticleWithDigest } from '../record.ts';
import { type ArticleItem, contentOf, KB_ENTITY, type StoredContent } from '../record.ts';
import { cancelledItem, getMany, type Item, type TransactItems } from './items.ts';

export function contentPut(key: { pk: string; sk: string }, articleId: string, bytes: Uint8Array, extra: Item = {}): TransactItems[number] {
  return { Put: { TableName: tableName, Item: { ...key, entity: KB_ENTITY.content, articleId, content: bytes, ...extra } } };
}

/** A failed condition on the article's metadata item: gone → 404, else → 409 version_conflict. */
export function metaFailure(error: unknown, index = 0): Error {
  const version = cancelledItem(error, index)?.version?.N;
  return version === undefined ? articleNotFound() : new VersionConflictError(Number(version));
}

export function articlePut(workspace: string, item: ArticleItem, condition: Item): TransactItems[number] {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.kbArticle(workspace, item.id), entity: KB_ENTITY.article, ...item },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
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

export function requireMeta(found: Map<string, Item>, workspace: string, id: string, precondition: VersionPrecondition): ArticleWithDigest {
  const meta = found.get(keys.kbArticle(workspace, id).sk) as ArticleWithDigest | undefined;
  if (!meta) throw articleNotFound();
  if (!meetsPrecondition(precondition, meta.version)) throw new VersionConflictError(meta.version);
  return meta;
}

export async function getArticle(
  workspace: string,
  id: string,
  view: 'draft' | 'live',
): Promise<{ item: ArticleItem; content: StoredContent } | null> {
  const contentKey = view === 'draft' ? keys.kbDraft(workspace, id) : keys.kbLive(workspace, id);
  const found = await getMany([keys.kbArticle(workspace, id), contentKey]);
  const meta = found.get(keys.kbArticle(workspace, id).sk);
  const content = found.get(contentKey.sk);
  if (!meta || !content) return null;
  return { item: meta as unknown as ArticleItem, content: contentOf(content) };
}

export async function getArticleItem(workspace: string, id: string): Promise<ArticleItem | null> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: tableName, Key: keys.kbArticle(workspace, id), ConsistentRead: true }));
  return (Item as ArticleItem | undefined) ?? null;
}

/** Every article's metadata (small items; content is elsewhere). */
export async function listArticleItems(workspace: string): Promise<ArticleItem[]> {
  const items = await queryAll({
    TableName: tableName,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.workspacePk(workspace), ':prefix': keys.kbArticlePrefix },
    ConsistentRead: true,
  });
  return items as unknown as ArticleItem[];
}
