/**
 * What publishing requires. The draft must say something in its source language (a title and at
 * least one block with words), and its internal links must hold: every linked article or category
 * exists, and a `public` article never points its readers at an `internal` or unpublished article
 * (they would land on a page they cannot see).
 */
import { type Block, hasLanguageText, type Language } from './blocks.ts';
import type { ExtractedLink } from './links.ts';

export type Visibility = 'public' | 'internal';

interface PublishIssue {
  path: string;
  message: string;
}

/** What the store found for each linked article or category (absent from the map = does not exist). */
export interface LinkTargetState {
  kind: 'article' | 'category';
  visibility: Visibility;
  /** Articles only: live now. */
  published: boolean;
}

export type PublishCheck = { ok: true } | { ok: false; error: 'not_publishable' | 'invalid_links'; issues: PublishIssue[] };

export function checkPublishable(
  article: { id: string; sourceLanguage: Language; visibility: Visibility },
  content: { titleEn: string | null; titleAr: string | null; blocks: readonly Block[] },
  links: readonly ExtractedLink[],
  targets: ReadonlyMap<string, LinkTargetState>,
): PublishCheck {
  const language = article.sourceLanguage;
  const title = language === 'en' ? content.titleEn : content.titleAr;
  const missing: PublishIssue[] = [];
  const titleField = language === 'en' ? 'titleEn' : 'titleAr';
  if (!title || title.trim().length === 0)
    missing.push({ path: `draft.${titleField}`, message: `a title in the source language (${language}) is required` });
  if (!content.blocks.some((block) => hasLanguageText(block, language)))
    missing.push({ path: 'draft.blocks', message: `at least one block with ${language} text is required` });
  if (missing.length > 0) return { ok: false, error: 'not_publishable', issues: missing };

  const invalid: PublishIssue[] = [];
  for (const link of links) {
    if (link.kind !== 'article' && link.kind !== 'category') continue;
    // Publishing makes this article live, so a link to itself is always good.
    if (link.kind === 'article' && link.target === article.id) continue;
    const path = `draft.blocks.${link.blockId}`;
    const target = targets.get(link.target);
    if (!target || target.kind !== link.kind) {
      invalid.push({ path, message: `links to ${link.kind} ${link.target}, which does not exist` });
      continue;
    }
    if (article.visibility !== 'public' || link.kind !== 'article') continue;
    if (target.visibility === 'internal')
      invalid.push({ path, message: `a public article may not link to internal article ${link.target}` });
    else if (!target.published) invalid.push({ path, message: `a public article may not link to unpublished article ${link.target}` });
  }
  return invalid.length > 0 ? { ok: false, error: 'invalid_links', issues: invalid } : { ok: true };
}
