/**
 * Slugs for articles and categories. Titles of every script keep their letters (a slug is a URL path
 * segment, and browsers show Unicode paths as written), with the marks their script spells words
 * with (Devanagari `नमस्ते`, Thai `สวัสดี`: vowel signs, viramas, tone marks). Marks that do not
 * change the word are dropped so the same title always gives the same slug: Arabic diacritics
 * (tashkeel), tatweel, and the accents of Latin, Greek and Cyrillic letters. Hamza forms (أ إ ئ ؤ)
 * are letters and stay. Digits of every number system become ASCII digits, so a slug never mixes two.
 * A slug is an identifier (lib/platform/identifiers.ts: NFKC, nothing invisible, one script a word,
 * marks on their letters, one number system), whether typed or made here from a title: invisible
 * characters of the title are dropped, and a word that breaks the rule (a look-alike) is left out.
 */
import { decimalZeroOf, identifierProblem, normaliseIdentifier, withoutIgnorable } from '../platform/identifiers.ts';

export const SLUG_MAX = 80;

/** A word: a lowercase letter (or one of a script without case) or a digit, then those and combining marks. */
const SLUG_WORD = '[\\p{Ll}\\p{Lo}\\p{Nd}][\\p{Ll}\\p{Lo}\\p{Nd}\\p{Mn}\\p{Mc}]*';
/** Lowercase letters of any script with their marks, and digits, in words joined by single hyphens. */
export const SLUG_PATTERN = new RegExp(`^${SLUG_WORD}(?:-${SLUG_WORD})*$`, 'u');

/** `٣`, `३`, `๓` → `3`: the digit's value (its distance from its system's zero). */
function asciiDigits(value: string): string {
  return value.replace(/\p{Nd}/gu, (digit) => String(digit.codePointAt(0)! - decimalZeroOf(digit)!));
}

/** é → e, ё → е; other scripts are left alone (NFKD would turn أ or ئ into another letter and a mark, and drop a virama). */
function withoutAccents(letter: string): string {
  return letter.normalize('NFKD').replace(/\p{M}/gu, '');
}

/** A slug from a title, or '' when the title has no letters or digits. */
export function slugify(title: string): string {
  const words = asciiDigits(withoutIgnorable(normaliseIdentifier(title)))
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '') // tashkeel and tatweel: no change to the word
    .replace(/[\p{sc=Latn}\p{sc=Grek}\p{sc=Cyrl}]\p{M}*/gu, withoutAccents)
    .toLowerCase()
    // What SLUG_PATTERN does not take separates words: also modifier letters (ゝ, ʼ) and capitals with no lower case.
    .split(/[^\p{Ll}\p{Lo}\p{Nd}\p{Mn}\p{Mc}]+/u)
    // Composed again, and a word that breaks the identifier rule (mixing scripts, a stray mark) left out.
    .map(normaliseIdentifier)
    .filter((word) => word.length > 0 && identifierProblem(word) === null);
  let slug = '';
  for (const word of words) {
    const next = slug ? `${slug}-${word}` : word;
    if ([...next].length > SLUG_MAX) break;
    slug = next;
  }
  // A single word longer than the limit is cut rather than dropped.
  if (!slug && words[0]) slug = [...words[0]].slice(0, SLUG_MAX).join('');
  return slug;
}

/** The slug to try for a record named by bilingual titles, preferring its source language. */
export function slugBase(titles: { en?: string | null; ar?: string | null }, preferred: 'en' | 'ar', fallback: string): string {
  const ordered = preferred === 'en' ? [titles.en, titles.ar] : [titles.ar, titles.en];
  for (const title of ordered) {
    const slug = title ? slugify(title) : '';
    if (slug) return slug;
  }
  return fallback;
}

/** `base`, else `base-2`, `base-3`, … : the first not in `taken`, kept within the length limit. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const stem = [...base]
      .slice(0, SLUG_MAX - suffix.length)
      .join('')
      .replace(/-+$/, '');
    const candidate = `${stem}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
