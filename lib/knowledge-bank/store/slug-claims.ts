/**
 * Slug claims: one `KBCATSLUG#`/`KBSLUG#` item per slug in use, written and released in the same
 * transaction as the category or article that owns it, so two records never share a slug.
 */

import { tableName } from '../../platform/data/client.ts';
import type { TransactWrite } from '../../platform/data/transact.ts';
import { kbArticleSlugEntity, kbCategorySlugEntity } from '../entities.ts';
import { queryPrefix } from './items.ts';

export function slugClaim(workspace: string, kind: 'article' | 'category', value: string, ownerId: string): TransactWrite {
  return {
    Put: {
      TableName: tableName,
      Item: {
        ...(kind === 'article' ? kbArticleSlugEntity.keys.slug(workspace, value) : kbCategorySlugEntity.keys.slug(workspace, value)),
        entity: kind === 'article' ? kbArticleSlugEntity.name : kbCategorySlugEntity.name,
        slug: value,
        ownerId,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function slugRelease(workspace: string, kind: 'article' | 'category', value: string, ownerId: string): TransactWrite {
  return {
    Delete: {
      TableName: tableName,
      Key: kind === 'article' ? kbArticleSlugEntity.keys.slug(workspace, value) : kbCategorySlugEntity.keys.slug(workspace, value),
      ConditionExpression: 'ownerId = :owner',
      ExpressionAttributeValues: { ':owner': ownerId },
    },
  };
}

export async function takenArticleSlugs(workspace: string, base: string): Promise<Set<string>> {
  const items = await queryPrefix(workspace, `${kbArticleSlugEntity.keys.prefix}${base}`, ['slug']);
  return new Set(items.map((item) => item.slug as string));
}
