/**
 * Slugs for articles and categories. Arabic titles keep their letters (a slug is a URL path
 * segment, and browsers show Unicode paths as written); marks that do not change the word are
 * dropped so the same title always gives the same slug: Arabic diacritics (tashkeel), tatweel and
 * Latin accents. Hamza forms (أ إ ئ ؤ) are letters and stay. Arabic-Indic digits become ASCII digits.
 * A slug is an identifier (lib/platform/identifiers.ts: NFKC, nothing invisible, one script a word),
 * whether typed or made here from a title: invisible characters of the title are dropped, and a word
 * that mixes scripts (a look-alike) is left out of the slug.
 */
import { identifierProblem, normaliseIdentifier, withoutIgnorable } from '../platform/identifiers.ts';

export const SLUG_MAX = 80;

/** Lowercase letters and digits of any script, in words joined by single hyphens. */
export const SLUG_PATTERN = /^[\p{Ll}\p{Lo}\p{Nd}]+(?:-[\p{Ll}\p{Lo}\p{Nd}]+)*$/u;

const ARABIC_INDIC_ZERO = 0x0660;
const EASTERN_ARABIC_INDIC_ZERO = 0x06f0;

function asciiDigits(value: string): string {
  return value.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => {
    const code = digit.charCodeAt(0);
    const zero = code >= EASTERN_ARABIC_INDIC_ZERO ? EASTERN_ARABIC_INDIC_ZERO : ARABIC_INDIC_ZERO;
    return String(code - zero);
  });
}

/** é → e; Arabic letters are left alone (NFKD would turn أ or ئ into a different letter plus a mark). */
function latinWithoutAccents(character: string): string {
  return character.normalize('NFKD').replace(/\p{M}/gu, '');
}

/** A slug from a title, or '' when the title has no letters or digits. */
export function slugify(title: string): string {
  const words = asciiDigits(withoutIgnorable(normaliseIdentifier(title)))
    .replace(/[\u064B-\u065F\u0670\u0640]/g, '') // tashkeel and tatweel: no change to the word
    .replace(/[^\u0600-\u06FF]/gu, latinWithoutAccents)
    .toLowerCase()
    // What SLUG_PATTERN does not take separates words: also modifier letters (ゝ, ʼ) and capitals with no lower case.
    .split(/[^\p{Ll}\p{Lo}\p{Nd}]+/u)
    // Composed again (NFKD took Hangul syllables apart), and a word mixing scripts left out.
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
