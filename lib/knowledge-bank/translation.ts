/**
 * Per-block translation status. The article's `sourceLanguage` is the reference. Each translation
 * unit (the header — titles and summaries — and every block) remembers the hash of its source text
 * at the moment its other-language text was last written. When the source changes and the
 * translation does not, the stored hash no longer matches: the unit is `outdated`. Writing the
 * translation again records the current source hash and makes it `complete`.
 *
 * Hashes are kept beside the content (not on the blocks the API returns), keyed by block id, so a
 * block sent back with its id keeps its history.
 */
import { createHash } from 'node:crypto';
import { type Block, type Language, languageTextOf, otherLanguage } from './blocks.ts';

export type BlockTranslation = 'complete' | 'missing' | 'outdated';
type LanguageStatus = 'complete' | 'partial' | 'outdated' | 'missing';
export type ArticleTranslations = Record<Language, LanguageStatus>;

/** The draft's words: what translation status is computed over. */
export interface TranslatableContent {
  titleEn: string | null;
  titleAr: string | null;
  summaryEn: string | null;
  summaryAr: string | null;
  blocks: readonly Block[];
}

/** Source-text hashes: `header` for titles and summaries, `blocks[id]` per block; null = never translated. */
export interface TranslationHashes {
  header: string | null;
  blocks: Record<string, string | null>;
}

interface Unit {
  key: string;
  source: string[];
  target: string[];
}

const HEADER = '\u0000header';

function headerText(content: TranslatableContent, language: Language): string[] {
  return language === 'en' ? [content.titleEn ?? '', content.summaryEn ?? ''] : [content.titleAr ?? '', content.summaryAr ?? ''];
}

function unitsOf(content: TranslatableContent, source: Language): Unit[] {
  const target = otherLanguage(source);
  return [
    { key: HEADER, source: headerText(content, source), target: headerText(content, target) },
    ...content.blocks.map((block) => ({
      key: block.id,
      source: languageTextOf(block, source),
      target: languageTextOf(block, target),
    })),
  ];
}

const isBlank = (parts: string[]) => parts.every((part) => part.trim().length === 0);
const sameText = (a: string[], b: string[]) => a.length === b.length && a.every((part, i) => part === b[i]);

/** A short, stable digest of a unit's text in one language (slots stay apart: JSON, not a join). */
function sourceHash(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

function storedHash(hashes: TranslationHashes | undefined, key: string): string | null | undefined {
  if (!hashes) return undefined;
  return key === HEADER ? hashes.header : hashes.blocks[key];
}

/**
 * The hashes to store with `next`, given what was stored before. A unit whose translation is
 * unchanged keeps its old hash (so an edit of the source alone makes it stale); a unit whose
 * translation was written or changed now takes the hash of its current source.
 */
export function nextTranslationHashes(
  previous: { content: TranslatableContent; hashes: TranslationHashes } | undefined,
  next: TranslatableContent,
  source: Language,
): TranslationHashes {
  const previousUnits = new Map(previous ? unitsOf(previous.content, source).map((unit) => [unit.key, unit]) : []);
  const result: TranslationHashes = { header: null, blocks: {} };
  for (const unit of unitsOf(next, source)) {
    let hash: string | null;
    if (isBlank(unit.target)) hash = null;
    else {
      const before = previousUnits.get(unit.key);
      const kept = before && sameText(before.target, unit.target) ? storedHash(previous?.hashes, unit.key) : undefined;
      hash = kept ?? sourceHash(unit.source);
    }
    if (unit.key === HEADER) result.header = hash;
    else result.blocks[unit.key] = hash;
  }
  return result;
}

function unitStatus(unit: Unit, hash: string | null | undefined): BlockTranslation {
  if (isBlank(unit.target)) return isBlank(unit.source) ? 'complete' : 'missing';
  return hash === sourceHash(unit.source) ? 'complete' : 'outdated';
}

/** Each block's status in the non-source language, by block id. */
export function blockTranslations(
  content: TranslatableContent,
  hashes: TranslationHashes,
  source: Language,
): Record<string, BlockTranslation> {
  const result: Record<string, BlockTranslation> = {};
  for (const unit of unitsOf(content, source)) {
    if (unit.key !== HEADER) result[unit.key] = unitStatus(unit, storedHash(hashes, unit.key));
  }
  return result;
}

/**
 * The article-level rollup. The source language is `complete` when the article has any words in
 * it, else `missing`. The other language is `missing` when nothing is translated, `outdated` when
 * any unit is stale, `partial` when some unit lacks it, else `complete`.
 */
export function articleTranslations(content: TranslatableContent, hashes: TranslationHashes, source: Language): ArticleTranslations {
  const units = unitsOf(content, source);
  const statuses = units.map((unit) => unitStatus(unit, storedHash(hashes, unit.key)));
  const hasSource = units.some((unit) => !isBlank(unit.source));
  const hasTarget = units.some((unit) => !isBlank(unit.target));
  let targetStatus: LanguageStatus;
  if (!hasTarget) targetStatus = 'missing';
  else if (statuses.includes('outdated')) targetStatus = 'outdated';
  else if (statuses.includes('missing')) targetStatus = 'partial';
  else targetStatus = 'complete';
  const sourceStatus: LanguageStatus = hasSource ? 'complete' : 'missing';
  return source === 'en' ? { en: sourceStatus, ar: targetStatus } : { en: targetStatus, ar: sourceStatus };
}
