/**
 * The rules an article's content passes on its way to the store, pure (no I/O): block ids, the
 * link cap, translation hashes against the previous draft, the size caps, what the metadata item
 * becomes when a draft is saved or published, and the digest that tells a draft from what was
 * published. The commands (lib/knowledge-bank/commands/) run them between the store's read and its write.
 */

import { createHash } from 'node:crypto';
import { BadRequestError, ContentTooLargeError } from '../platform/errors.ts';
import { assignBlockIds } from './block-ids.ts';
import type { BlockInput, Language } from './blocks.ts';
import { encodeContent, MAX_CONTENT_BYTES } from './content-codec.ts';
import { type ExtractedLink, extractLinks, type InternalTarget, internalTargets, linkLimitProblem } from './links.ts';
import { type ArticleWithDigest, type Header, headerOf, type StoredContent, type StoredLink } from './record.ts';
import { type ArticleTranslations, articleTranslations, nextTranslationHashes, type TranslatableContent } from './translation.ts';

/** A draft ready to store: its content, encoded, with the links it holds and its translation status. */
export interface PreparedContent {
  content: StoredContent;
  bytes: Uint8Array;
  links: ExtractedLink[];
  targets: InternalTarget[];
  translations: ArticleTranslations;
}

/** The titles and summaries of a create or a draft write (absent ones are null). */
export function headerOfWrite(write: Partial<Header>): Header {
  return {
    titleEn: write.titleEn ?? null,
    titleAr: write.titleAr ?? null,
    summaryEn: write.summaryEn ?? null,
    summaryAr: write.summaryAr ?? null,
  };
}

/**
 * Validate and encode a draft: block ids, the link cap, translation hashes against the previous
 * draft, and the size caps. Throws the 400/413 the client must see.
 */
export function prepareContent(
  header: Omit<TranslatableContent, 'blocks'>,
  blocks: readonly BlockInput[],
  source: Language,
  previous: StoredContent | undefined,
): PreparedContent {
  const assigned = assignBlockIds(blocks);
  if (!assigned.ok)
    throw new BadRequestError(
      'duplicate_block_id',
      `Block ids must be unique in an article; repeated: ${assigned.duplicateIds.join(', ')}`,
    );
  const translatable: TranslatableContent = { ...header, blocks: assigned.blocks };
  const links = extractLinks(assigned.blocks);
  const targets = internalTargets(links);
  const linkProblem = linkLimitProblem(links);
  if (linkProblem) throw new BadRequestError('too_many_links', linkProblem);
  const hashes = nextTranslationHashes(previous ? { content: previous, hashes: previous.hashes } : undefined, translatable, source);
  const content: StoredContent = { ...translatable, hashes };
  const encoded = encodeContent(content);
  if (!encoded.ok)
    throw new ContentTooLargeError(
      encoded.jsonBytes > MAX_CONTENT_BYTES
        ? `The article content is ${encoded.jsonBytes} bytes of JSON; the limit is ${MAX_CONTENT_BYTES}`
        : 'The article content does not compress to fit one stored item; shorten it or split the article',
    );
  return { content, bytes: encoded.bytes, links, targets, translations: articleTranslations(content, hashes, source) };
}

/**
 * A published revision as the next draft: copied as it was published (already encoded), translation
 * hashes included, so its per-block translation status comes back with it.
 */
export function restoredContent(content: StoredContent, bytes: Uint8Array, source: Language): PreparedContent {
  const links = extractLinks(content.blocks);
  return { content, bytes, links, targets: internalTargets(links), translations: articleTranslations(content, content.hashes, source) };
}

/** Identifies published words: a draft equal to the latest revision has no unpublished changes. */
function contentDigest(content: TranslatableContent): string {
  return createHash('sha256')
    .update(JSON.stringify([content.titleEn, content.titleAr, content.summaryEn, content.summaryAr, content.blocks]))
    .digest('base64url');
}

/** The metadata item once `draft` replaces the draft: one version on. */
export function draftedArticle(meta: ArticleWithDigest, draft: PreparedContent, now: string): ArticleWithDigest {
  return {
    ...meta,
    draft: headerOf(draft.content),
    translations: draft.translations,
    hasUnpublishedChanges: meta.publishedDigest !== contentDigest(draft.content),
    version: meta.version + 1,
    updatedAt: now,
  };
}

export interface Publication {
  /** The metadata item once published. */
  next: ArticleWithDigest;
  /** The revision that goes live. */
  revision: number;
  /** False when the draft is the latest revision again (republished after an unpublish): no revision is written. */
  newRevision: boolean;
}

/** What publishing `content`, the draft, makes of the metadata item. */
export function publication(meta: ArticleWithDigest, content: StoredContent, now: string): Publication {
  const newRevision = meta.hasUnpublishedChanges || meta.latestRevision === 0;
  const revision = newRevision ? meta.latestRevision + 1 : meta.latestRevision;
  const next: ArticleWithDigest = {
    ...meta,
    status: 'published',
    live: headerOf(content),
    liveTranslations: articleTranslations(content, content.hashes, meta.sourceLanguage),
    latestRevision: revision,
    liveRevision: revision,
    hasUnpublishedChanges: false,
    publishedDigest: contentDigest(content),
    publishedAt: now,
    version: meta.version + 1,
    updatedAt: now,
  };
  return { next, revision, newRevision };
}

/** Links as stored: an external link keeps what the link checker recorded while its id stays the same. */
export function withCheckResults(links: ExtractedLink[], previous: StoredLink[]): StoredLink[] {
  const checked = new Map(previous.map((link) => [link.id, link]));
  return links.map((link) => {
    const earlier = checked.get(link.id);
    if (link.kind !== 'external' && link.kind !== 'record') return link;
    return {
      ...link,
      status: earlier?.status ?? 'unchecked',
      httpStatus: earlier?.httpStatus ?? null,
      checkedAt: earlier?.checkedAt ?? null,
    };
  });
}
