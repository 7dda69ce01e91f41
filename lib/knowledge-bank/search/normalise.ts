/**
 * How words become index terms, the same on both sides (documents and queries), so that what a
 * reader types finds what an author wrote however either spelt it.
 *
 * Arabic: the short-vowel marks (tashkeel) and the tatweel are presentation, not spelling; the
 * hamza forms of alef, alef maqsura and taa marbuta are written inconsistently in practice (أ / ا,
 * ى / ي, ة / ه), so each folds to one letter, and a light stemmer takes off the definite article and
 * common suffixes (arabic-stemmer.ts). Arabic-Indic digits become ASCII. English: lower case
 * and a Porter stem, so "billing", "billed" and "bills" meet at "bill".
 */
import { stemmer } from 'stemmer';
import { arabicStem } from './arabic-stemmer.ts';

// Tashkeel (fathatan … sukun, maddah, hamza above/below, …), Quranic marks, superscript alef.
const ARABIC_MARKS = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06DC\u06DF-\u06E8\u06EA-\u06ED]/g;
const TATWEEL = /\u0640/g;
const ALEF_FORMS = /[\u0622\u0623\u0625\u0671]/g; // آ أ إ ٱ
const ALEF_MAQSURA = /\u0649/g; // ى
const TAA_MARBUTA = /\u0629/g; // ة
const ARABIC_INDIC_DIGITS = /[\u0660-\u0669\u06F0-\u06F9]/g;

/** Folds Arabic spelling variants; leaves every other script as it is (but lower-cased). */
export function normaliseText(text: string): string {
  return (
    text
      // NFKC first: Arabic presentation forms (ﻻ, ﺔ) and full-width Latin become ordinary letters.
      .normalize('NFKC')
      .toLowerCase()
      .replace(ARABIC_MARKS, '')
      .replace(TATWEEL, '')
      .replace(ALEF_FORMS, 'ا')
      .replace(ALEF_MAQSURA, 'ي')
      .replace(TAA_MARBUTA, 'ه')
      .replace(ARABIC_INDIC_DIGITS, (digit) => String((digit.charCodeAt(0) - (digit >= '\u06F0' ? 0x06f0 : 0x0660)) % 10))
  );
}

/** Letters, digits and combining marks: a word keeps its diacritics until it is normalised. */
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

export interface Token {
  text: string;
  start: number;
  end: number;
}

/** The words of a text with their offsets in it (what snippets highlight), one at a time. */
export function* wordsOf(text: string): Generator<Token> {
  for (const match of text.matchAll(WORD)) yield { text: match[0], start: match.index, end: match.index + match[0].length };
}

export function tokensOf(text: string): Token[] {
  return [...wordsOf(text)];
}

export function tokenize(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * Words too common to narrow a search. Every query term must match, so a stop word in a question
 * ("how do I reset my password") would otherwise rule out an article that answers it.
 */
const STOP_WORDS = new Set([
  ...'a an and are as at be by can do does for from how i if in into is it my of on or our so that the their then there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
  // Arabic prepositions, conjunctions and pronouns, written as normaliseText leaves them.
  ...'في من الي علي عن مع هذا هذه ذلك تلك التي الذي الذين هو هي هم ان او ثم كيف ما ماذا لماذا متي اين هل لا قد كان'.split(' '),
]);

const LATIN_WORD = /^[a-z]+$/;
/** Arabic letters only (after normalisation): a word mixing scripts or digits is left whole. */
const ARABIC_WORD = /^[\u0621-\u064A]+$/;

/**
 * Words repeat (a help centre has a vocabulary of some thousands), and normalising and stemming
 * are most of the cost of building an index: each distinct word is worked out once. Bounded, so a
 * corpus of random strings cannot grow it without limit.
 */
const TERM_CACHE_LIMIT = 100_000;

interface TermPipelineOptions {
  /** Arabic light stemming (arabic-stemmer.ts); off only to measure what it changes (the bench). */
  arabicStemming: boolean;
}

/**
 * One word → its index terms: none for a stop word; otherwise its stem (Porter for English, the
 * light stemmer for Arabic) and, when it differs, the word itself, so one typo is one edit away from
 * what was indexed even when the typo changes the stem ("billinng" stems to itself, far from "bill",
 * but is one edit from "billing"), and an exact word still outranks a word that only shares its stem.
 */
export function termPipeline({ arabicStemming }: TermPipelineOptions): (word: string) => string[] {
  const cache = new Map<string, string[]>();
  const stemOf = (normalised: string) =>
    LATIN_WORD.test(normalised)
      ? stemmer(normalised)
      : arabicStemming && ARABIC_WORD.test(normalised)
        ? arabicStem(normalised)
        : normalised;
  return (word) => {
    const cached = cache.get(word);
    if (cached) return cached;
    const normalised = normaliseText(word);
    let terms: string[];
    if (normalised.length === 0 || STOP_WORDS.has(normalised)) terms = [];
    else {
      const stem = stemOf(normalised);
      terms = stem === normalised ? [stem] : [stem, normalised];
    }
    if (cache.size >= TERM_CACHE_LIMIT) cache.clear();
    cache.set(word, terms);
    return terms;
  };
}

export const termsOf = termPipeline({ arabicStemming: true });

/** A word's main term (its stem), or null for a word that is not indexed. */
export function termOf(word: string): string | null {
  return termsOf(word)[0] ?? null;
}
