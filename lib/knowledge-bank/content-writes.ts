/**
 * Writes of an article's content: the store reads what the rules need, the pure rules
 * (draft-content.ts, publish.ts) decide, and the store writes once. No rule runs inside the store
 * between its read and its transaction.
 */

import type { VersionPrecondition } from '../platform/data/conditions.ts';
import type { IdempotentRequest } from '../platform/data/idempotency.ts';
import type { Language } from './blocks.ts';
import {
  draftedArticle,
  headerOfWrite,
  prepareContent,
  publication,
  publishRefusal,
  restoredContent,
  withCheckResults,
} from './draft-content.ts';
import { extractLinks, internalTargets } from './links.ts';
import { checkPublishable } from './publish.ts';
import type { ArticleItem, StoredContent } from './record.ts';
import type { ArticleCreate, DraftWrite } from './schemas.ts';
import { insertArticle } from './store/article-lifecycle.ts';
import { readDraft, readRevisionToRestore, writeDraft } from './store/drafts.ts';
import { linkTargetStates } from './store/links.ts';
import { readPublishState, writePublication } from './store/publishing.ts';

type ArticleWithContent = { item: ArticleItem; content: StoredContent };

/** POST: the content is checked and encoded before anything is read; then one transaction. */
export async function createArticle(
  workspace: string,
  body: ArticleCreate,
  idempotency: IdempotentRequest | undefined,
): Promise<{ article: ArticleWithContent; replayed: boolean }> {
  const source: Language = body.sourceLanguage ?? (body.titleEn ? 'en' : body.titleAr ? 'ar' : 'en');
  const prepared = prepareContent(headerOfWrite(body), body.blocks ?? [], source, undefined);
  return insertArticle(workspace, body, source, prepared, idempotency);
}

/** PUT draft: 1 BatchGet (404, If-Match, the previous draft for translation hashes), the rules, 1 transaction. */
export async function saveDraft(
  workspace: string,
  id: string,
  write: DraftWrite,
  precondition: VersionPrecondition,
): Promise<ArticleWithContent> {
  const { meta, draft, draftLinks } = await readDraft(workspace, id, precondition);
  const prepared = prepareContent(headerOfWrite(write), write.blocks ?? [], meta.sourceLanguage, draft);
  const next = draftedArticle(meta, prepared, new Date().toISOString());
  await writeDraft(workspace, meta, next, { bytes: prepared.bytes, links: withCheckResults(prepared.links, draftLinks) }, draftLinks);
  return { item: next, content: prepared.content };
}

/** Restore: a published revision becomes the draft, as it was published. 1 BatchGet + 1 transaction. */
export async function restoreRevision(
  workspace: string,
  id: string,
  revision: number,
  precondition: VersionPrecondition,
): Promise<ArticleWithContent> {
  const { meta, content, bytes, draftLinks } = await readRevisionToRestore(workspace, id, revision, precondition);
  const restored = restoredContent(content, bytes, meta.sourceLanguage);
  const next = draftedArticle(meta, restored, new Date().toISOString());
  await writeDraft(workspace, meta, next, { bytes, links: withCheckResults(restored.links, draftLinks) }, draftLinks);
  return { item: next, content };
}

/**
 * Publish: 1 BatchGet of the article, 1 BatchGet of what its links point at (for the publish
 * rules), 1 transaction. Publishing an article with nothing new changes nothing.
 */
export async function publishArticle(
  workspace: string,
  id: string,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<ArticleWithContent> {
  const state = await readPublishState(workspace, id, precondition);
  const { meta, content } = state;
  if (meta.status === 'published' && !meta.hasUnpublishedChanges) return { item: meta, content };
  const links = extractLinks(content.blocks);
  const targets = internalTargets(links);
  const check = checkPublishable(meta, content, links, await linkTargetStates(workspace, targets));
  if (!check.ok) throw publishRefusal(check);
  const published = publication(meta, content, new Date().toISOString());
  await writePublication(workspace, state, published, withCheckResults(links, state.draftLinks), keyId);
  return { item: published.next, content };
}
