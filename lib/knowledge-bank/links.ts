/**
 * Outgoing links of an article, read straight from the structured span links of its blocks.
 * One link per (block, target): the same URL twice in a paragraph is one link to check.
 */
import { createHash } from 'node:crypto';
import { type Block, LANGUAGES, richTextsOf, type SpanLink } from './blocks.ts';

export type LinkKind = 'article' | 'category' | 'record' | 'external';

export interface ExtractedLink {
  /** Stable for the same block and target, so link-check results (issue 13) survive re-saves. */
  id: string;
  blockId: string;
  kind: LinkKind;
  /** Article or category id, `<kind>:<id>` for a record, the URL for an external link. */
  target: string;
  anchor?: string;
}

/**
 * Distinct internal targets (articles and categories) an article may link to. Each costs at most two
 * items (a backlink put and a delete) in the transaction that saves the draft or publishes, which
 * also writes up to 5 other items; 40 keeps the worst case (5 + 2 × 40 = 85) under DynamoDB's
 * 100-item transaction limit with room to spare.
 */
const MAX_INTERNAL_LINK_TARGETS = 40;

/**
 * An article's outgoing links are one item per view (uncompressed, so the link checker can update
 * them): at most this many links, in at most this much JSON, which leaves room under DynamoDB's
 * 400 KB item limit for what the checker records on each.
 */
export const MAX_LINKS = 1000;
const MAX_LINKS_JSON_BYTES = 200_000;

/** Why these links cannot be stored, or null when they can. */
export function linkLimitProblem(links: readonly ExtractedLink[]): string | null {
  const targets = internalTargets(links).length;
  if (targets > MAX_INTERNAL_LINK_TARGETS)
    return `An article links to at most ${MAX_INTERNAL_LINK_TARGETS} distinct articles and categories; this one links to ${targets}`;
  if (links.length > MAX_LINKS) return `An article holds at most ${MAX_LINKS} links; this one holds ${links.length}`;
  if (Buffer.byteLength(JSON.stringify(links)) > MAX_LINKS_JSON_BYTES)
    return "The article's links are too long to store together; use fewer or shorter URLs";
  return null;
}

function describe(link: SpanLink): { kind: LinkKind; target: string; anchor?: string } {
  if ('href' in link) return { kind: 'external', target: link.href };
  if ('articleId' in link) return { kind: 'article', target: link.articleId, ...(link.anchor ? { anchor: link.anchor } : {}) };
  if ('categoryId' in link) return { kind: 'category', target: link.categoryId };
  return { kind: 'record', target: `${link.record.kind}:${link.record.id}` };
}

export function linkId(blockId: string, kind: LinkKind, target: string, anchor?: string): string {
  return createHash('sha256')
    .update(JSON.stringify([blockId, kind, target, anchor ?? null]))
    .digest('base64url')
    .slice(0, 16);
}

export function extractLinks(blocks: readonly Block[]): ExtractedLink[] {
  const links: ExtractedLink[] = [];
  const seen = new Set<string>();
  for (const block of blocks) {
    for (const rich of richTextsOf(block)) {
      for (const language of LANGUAGES) {
        for (const span of rich[language] ?? []) {
          if (!span.link) continue;
          const { kind, target, anchor } = describe(span.link);
          const id = linkId(block.id, kind, target, anchor);
          if (seen.has(id)) continue;
          seen.add(id);
          links.push({ id, blockId: block.id, kind, target, ...(anchor ? { anchor } : {}) });
        }
      }
    }
  }
  return links;
}

export interface InternalTarget {
  kind: 'article' | 'category';
  id: string;
}

/** The distinct articles and categories linked to: one backlink item each. */
export function internalTargets(links: readonly ExtractedLink[]): InternalTarget[] {
  const byId = new Map<string, InternalTarget>();
  for (const link of links) {
    if (link.kind === 'article' || link.kind === 'category') byId.set(link.target, { kind: link.kind, id: link.target });
  }
  return [...byId.values()];
}

/** Which backlink items to add and remove when an article's outgoing internal targets change. */
export function targetChanges(
  before: readonly InternalTarget[],
  after: readonly InternalTarget[],
): { added: InternalTarget[]; removed: InternalTarget[] } {
  const beforeIds = new Set(before.map((target) => target.id));
  const afterIds = new Set(after.map((target) => target.id));
  return {
    added: after.filter((target) => !beforeIds.has(target.id)),
    removed: before.filter((target) => !afterIds.has(target.id)),
  };
}
