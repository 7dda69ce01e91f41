/**
 * Links and backlinks: one `KBLINKS#` item per article and view (draft, live) listing its outgoing
 * links, and one backlink item per linked target, written in the same transaction as the content
 * that implies them, so they never disagree with it; an article's backlinks are one Query.
 */

import { getMany } from '../../platform/data/batch.ts';
import { tableName } from '../../platform/data/client.ts';
import type { NamedWrites, TransactWrite } from '../../platform/data/transact.ts';
import { kbArticleEntity, kbBacklinkEntity, kbCategoryEntity, kbLinksEntity } from '../entities.ts';
import { type InternalTarget, internalTargets, targetChanges } from '../links.ts';
import type { LinkTargetState } from '../publish.ts';
import { type ArticleItem, type StoredLink, storedLinksOf } from '../record.ts';
import { findArticleItem } from './articles.ts';
import { queryKeys } from './items.ts';

export function linksPut(workspace: string, articleId: string, view: 'DRAFT' | 'LIVE', links: StoredLink[]): TransactWrite {
  return {
    Put: {
      TableName: tableName,
      Item: { ...kbLinksEntity.keys.links(workspace, articleId, view), entity: kbLinksEntity.name, articleId, view, links },
    },
  };
}

/** Backlink puts and deletes for a change of outgoing internal targets, named `backlink <view> <target id>`. */
export function backlinkWrites(
  workspace: string,
  sourceId: string,
  view: 'DRAFT' | 'LIVE',
  before: readonly InternalTarget[],
  after: readonly InternalTarget[],
): NamedWrites {
  const { added, removed } = targetChanges(before, after);
  const name = (target: InternalTarget) => `backlink ${view} ${target.id}`;
  return Object.fromEntries([
    ...added.map((target): [string, TransactWrite] => [
      name(target),
      {
        Put: {
          TableName: tableName,
          Item: {
            ...kbBacklinkEntity.keys.backlink(workspace, target.id, view, sourceId),
            entity: kbBacklinkEntity.name,
            targetId: target.id,
            targetKind: target.kind,
            sourceId,
            view,
          },
        },
      },
    ]),
    ...removed.map((target): [string, TransactWrite] => [
      name(target),
      { Delete: { TableName: tableName, Key: kbBacklinkEntity.keys.backlink(workspace, target.id, view, sourceId) } },
    ]),
  ]);
}

/** What the store knows of each linked article or category, for the publish rules. */
export async function linkTargetStates(workspace: string, targets: InternalTarget[]): Promise<Map<string, LinkTargetState>> {
  const keyList = targets.map((t) =>
    t.kind === 'article' ? kbArticleEntity.keys.article(workspace, t.id) : kbCategoryEntity.keys.category(workspace, t.id),
  );
  const found = await getMany(keyList);
  const states = new Map<string, LinkTargetState>();
  for (const item of found) {
    if (!item) continue;
    if (item.entity === kbArticleEntity.name)
      states.set(item.id as string, {
        kind: 'article',
        visibility: item.visibility as 'public' | 'internal',
        published: item.status === 'published',
      });
    else if (item.entity === kbCategoryEntity.name)
      states.set(item.id as string, { kind: 'category', visibility: item.visibility as 'public' | 'internal', published: true });
  }
  return states;
}

/** The article's links in one view, with what each internal one points at; null when there is no such article. */
export async function findLinks(
  workspace: string,
  id: string,
  view: 'DRAFT' | 'LIVE',
): Promise<{ meta: ArticleItem; links: StoredLink[]; targets: Map<string, LinkTargetState> } | null> {
  const [meta, linksItem] = await getMany([kbArticleEntity.keys.article(workspace, id), kbLinksEntity.keys.links(workspace, id, view)]);
  if (!meta) return null;
  const links = storedLinksOf(linksItem);
  const targets = await linkTargetStates(workspace, internalTargets(links));
  return { meta: meta as unknown as ArticleItem, links, targets };
}

/** Who links to the article (one Query of its backlink items, beside a GetItem of it); null when there is no such article. */
export async function findBacklinks(
  workspace: string,
  id: string,
): Promise<{ meta: ArticleItem; backlinks: Array<{ sourceId: string; view: 'DRAFT' | 'LIVE' }> } | null> {
  const [meta, backlinkKeys] = await Promise.all([findArticleItem(workspace, id), queryKeys(workspace, kbBacklinkEntity.keys.prefix(id))]);
  if (!meta) return null;
  const backlinks = backlinkKeys.map((key) => {
    const [view, sourceId] = key.sk.slice(kbBacklinkEntity.keys.prefix(id).length).split('#') as ['DRAFT' | 'LIVE', string];
    return { sourceId, view };
  });
  return { meta, backlinks };
}
