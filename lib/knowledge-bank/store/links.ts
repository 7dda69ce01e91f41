/**
 * Links and backlinks: one `KBLINKS#` item per article and view (draft, live) listing its outgoing
 * links, and one backlink item per linked target, written in the same transaction as the content
 * that implies them, so they never disagree with it; an article's backlinks are one Query.
 */

import { tableName } from '../../platform/data/client.ts';
import { keys } from '../../platform/data/keys.ts';
import { type InternalTarget, internalTargets, targetChanges } from '../links.ts';
import type { LinkTargetState } from '../publish.ts';
import { type ArticleItem, KB_ENTITY, type StoredLink, storedLinksOf } from '../record.ts';
import { getArticleItem } from './articles.ts';
import { getMany, queryKeys, type TransactItems } from './items.ts';

export function linksPut(workspace: string, articleId: string, view: 'DRAFT' | 'LIVE', links: StoredLink[]): TransactItems[number] {
  return {
    Put: {
      TableName: tableName,
      Item: { ...keys.kbLinks(workspace, articleId, view), entity: KB_ENTITY.links, articleId, view, links },
    },
  };
}

/** Backlink puts and deletes for a change of outgoing internal targets. */
export function backlinkWrites(
  workspace: string,
  sourceId: string,
  view: 'DRAFT' | 'LIVE',
  before: readonly InternalTarget[],
  after: readonly InternalTarget[],
): TransactItems {
  const { added, removed } = targetChanges(before, after);
  return [
    ...added.map((target) => ({
      Put: {
        TableName: tableName,
        Item: {
          ...keys.kbBacklink(workspace, target.id, view, sourceId),
          entity: KB_ENTITY.backlink,
          targetId: target.id,
          targetKind: target.kind,
          sourceId,
          view,
        },
      },
    })),
    ...removed.map((target) => ({ Delete: { TableName: tableName, Key: keys.kbBacklink(workspace, target.id, view, sourceId) } })),
  ];
}

/** What the store knows of each linked article or category, for the publish rules. */
export async function linkTargetStates(workspace: string, targets: InternalTarget[]): Promise<Map<string, LinkTargetState>> {
  const keyList = targets.map((t) => (t.kind === 'article' ? keys.kbArticle(workspace, t.id) : keys.kbCategory(workspace, t.id)));
  const found = await getMany(keyList);
  const states = new Map<string, LinkTargetState>();
  for (const item of found.values()) {
    if (item.entity === KB_ENTITY.article)
      states.set(item.id as string, {
        kind: 'article',
        visibility: item.visibility as 'public' | 'internal',
        published: item.status === 'published',
      });
    else if (item.entity === KB_ENTITY.category)
      states.set(item.id as string, { kind: 'category', visibility: item.visibility as 'public' | 'internal', published: true });
  }
  return states;
}

export async function getLinks(
  workspace: string,
  id: string,
  view: 'DRAFT' | 'LIVE',
): Promise<{ meta: ArticleItem; links: StoredLink[]; targets: Map<string, LinkTargetState> } | null> {
  const found = await getMany([keys.kbArticle(workspace, id), keys.kbLinks(workspace, id, view)]);
  const meta = found.get(keys.kbArticle(workspace, id).sk) as ArticleItem | undefined;
  if (!meta) return null;
  const links = storedLinksOf(found.get(keys.kbLinks(workspace, id, view).sk));
  const targets = await linkTargetStates(workspace, internalTargets(links));
  return { meta, links, targets };
}

export async function getBacklinks(
  workspace: string,
  id: string,
): Promise<{ meta: ArticleItem; backlinks: Array<{ sourceId: string; view: 'DRAFT' | 'LIVE' }> } | null> {
  const [meta, backlinkKeys] = await Promise.all([getArticleItem(workspace, id), queryKeys(workspace, keys.kbBacklinkPrefix(id))]);
  if (!meta) return null;
  const backlinks = backlinkKeys.map((key) => {
    const [view, sourceId] = key.sk.slice(keys.kbBacklinkPrefix(id).length).split('#') as ['DRAFT' | 'LIVE', string];
    return { sourceId, view };
  });
  return { meta, backlinks };
}
