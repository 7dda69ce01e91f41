/**
 * The rules a draft's content passes before it is stored (pure: no I/O): block ids, the link cap,
 * translation hashes against the previous draft, the size caps, and the digest that tells whether a
 * draft differs from what was published.
 */

import { createHash } from 'node:crypto';
import { BadRequestError } from '../platform/errors.ts';
import { assignBlockIds } from './block-ids.ts';
import type { BlockInput, Language } from './blocks.ts';
import { encodeContent, MAX_CONTENT_BYTES } from './content-codec.ts';
import { ContentTooLargeError } from './errors.ts';
import { type ExtractedLink, extractLinks, type InternalTarget, internalTargets, linkLimitProblem } from './links.ts';
import type { StoredContent } from './record.ts';
import { nextTranslationHashes, type TranslatableContent } from './translation.ts';

export interface PreparedContent {
  content: StoredContent;
  bytes: Uint8Array;
  links: ExtractedLink[];
  targets: InternalTarget[];
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
  return { content, bytes: encoded.bytes, links, targets };
}

/** Identifies published words: a draft equal to the latest revision has no unpublished changes. */
export function contentDigest(content: TranslatableContent): string {
  return createHash('sha256')
    .update(JSON.stringify([content.titleEn, content.titleAr, content.summaryEn, content.summaryAr, content.blocks]))
    .digest('base64url');
}
