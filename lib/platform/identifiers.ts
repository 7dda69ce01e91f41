/**
 * The one rule for identifiers a person types: knowledge-bank article and category slugs, idea
 * statuses and modules (`cxctl labels set`, and the values an idea names), and any identifier an area
 * adds. An identifier is something two people must be able to tell apart by looking at it, and tell
 * equal when it is equal; a title is what someone wrote and keeps exactly what they typed.
 *
 * 1. **Normalised to NFKC** (Unicode UAX #15), as UAX #31 §5 and UTS #39 recommend for identifiers.
 *    NFC would only join a letter with its combining accent (NFD `café` and NFC `café` become one);
 *    NFKC also folds compatibility variants into the letters they stand for: fullwidth `ｒｅｓｅｔ` and
 *    `３`, ligatures (`ﬀ` → `ff`), mathematical letters (`𝐚𝐛` → `ab`), superscripts, Arabic
 *    presentation forms (`ﻻ` → `لا`). Those look like the plain letters and would otherwise be
 *    different identifiers. NFKC keeps Arabic letters with hamza (أ إ ئ ؤ) as they are.
 * 2. **Nothing invisible**: after normalising, no default-ignorable code point (zero-width spaces and
 *    joiners, soft hyphen, the Hangul fillers U+3164 and U+FFA0, variation selectors, tags…), no
 *    bidi control (U+202A–U+202E, U+2066–U+2069, LRM, RLM, ALM: they reorder what is shown), no
 *    other control or format character, line or paragraph separator, private-use, unassigned or
 *    lone surrogate code point, and no space but U+0020 (NFKC already turns the others into it).
 * 3. **One script a word** (UTS #39 §5.2, the Highly Restrictive level, applied to each word): the
 *    letters of a word (a run between spaces, hyphens and other punctuation) are all of one script,
 *    or of Han with Hiragana and Katakana, Bopomofo or Hangul (how Japanese, Chinese and Korean are
 *    written); digits and marks of the Common and Inherited scripts go with any. So `passwоrd` with
 *    a Cyrillic `о` is refused while `reset-password` and `إعادة-password` (an Arabic word beside a
 *    Latin one) are not: a look-alike needs letters of two scripts inside one word. And every letter
 *    is of a script UAX #31 (Table 5) recommends for identifiers, so historic and specialised
 *    scripts, full of Latin look-alikes, are refused.
 *
 * 4. **Marks with their letter** (UTS #39 §5.4, Optional Detection): a combining mark (an accent, a
 *    vowel sign, a virama, a tone mark: how Devanagari `नमस्ते`, Thai `สวัสดี` and vocalised Arabic
 *    `مَرْحَبًا` are written) follows a letter, of its own script when it belongs to one (a Devanagari
 *    vowel sign after a Latin letter is refused; an Inherited accent goes with any letter); not the same
 *    mark twice in a row, nor more than 4 in a row, nor a dot above on a letter with a dot of its own
 *    (`i` + U+0307 looks like `i`); no enclosing mark (UAX #31 leaves them out of identifiers). NFKC
 *    has composed every letter and mark that have a composed form (`e` + U+0301 is `é`); the marks
 *    are counted in its decomposed form, so `á` + U+0301 holds U+0301 twice.
 * 5. **Digits of one number system** (UTS #39 §5.3, Mixed-Number Detection): every decimal digit of
 *    the identifier maps to the same zero, so `١2-release` (an Arabic-Indic one beside an ASCII two)
 *    is refused beside `12-release` and `١٢-release`. NFKC has already made fullwidth and mathematical
 *    digits ASCII.
 *
 * Not covered: a word written wholly in another script that looks like a Latin one (Cyrillic `рор`
 * beside Latin `pop`, UTS #39's whole-script confusables). Refusing it would refuse real Cyrillic or
 * Greek words; catching it needs the confusables skeleton of every slug, stored and kept unique
 * beside the slug claims. Letters in another case (`Reset` beside `reset`) are visible, and slugs
 * are lower-case by their pattern.
 */
import * as z from 'zod/mini';

/** The normal form of every identifier. */
export function normaliseIdentifier(value: string): string {
  return value.normalize('NFKC');
}

/** Invisible or control-like code points (rule 2), bidi controls apart for a clearer message. */
const BIDI_CONTROL = /\p{Bidi_Control}/u;
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]|(?! )\p{Zs}/u;
const EVERY_IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * `value` without its default-ignorable and format characters: what an identifier made from a title
 * (a slug) keeps of it. They sit inside words (a zero-width joiner, a soft hyphen, a Hangul filler
 * that counts as a letter), where a space or a control character separates words anyway.
 */
export function withoutIgnorable(value: string): string {
  return value.replace(EVERY_IGNORABLE, '');
}

/** UAX #31 Table 5, Recommended Scripts (as ISO 15924 codes), besides Common and Inherited. */
const RECOMMENDED_SCRIPTS = [
  'Arab',
  'Armn',
  'Beng',
  'Bopo',
  'Cyrl',
  'Deva',
  'Ethi',
  'Geor',
  'Grek',
  'Gujr',
  'Guru',
  'Hang',
  'Hani',
  'Hebr',
  'Hira',
  'Kana',
  'Khmr',
  'Knda',
  'Laoo',
  'Latn',
  'Mlym',
  'Mymr',
  'Orya',
  'Sinh',
  'Taml',
  'Telu',
  'Thaa',
  'Thai',
  'Tibt',
] as const;
type Script = (typeof RECOMMENDED_SCRIPTS)[number];
const SCRIPT_PATTERNS = RECOMMENDED_SCRIPTS.map((script) => [script, new RegExp(`^\\p{scx=${script}}$`, 'u')] as const);
/** Characters whose Script_Extensions is Common or Inherited: they go with any script. */
const ANY_SCRIPT = /^[\p{scx=Zyyy}\p{scx=Zinh}]$/u;
/** The mixtures UTS #39's Highly Restrictive level allows besides a single script. */
const ALLOWED_MIXTURES: readonly ReadonlySet<Script>[] = [
  new Set(['Hani', 'Hira', 'Kana']),
  new Set(['Hani', 'Bopo']),
  new Set(['Hani', 'Hang']),
];
/** What separates words: anything that is not a letter, mark or number. */
const WORD_SEPARATORS = /[^\p{L}\p{M}\p{N}]+/u;

/** The recommended scripts a character belongs to (by Script_Extensions); null: any script. */
function scriptsOf(character: string): Script[] | null {
  if (ANY_SCRIPT.test(character)) return null;
  return SCRIPT_PATTERNS.filter(([, pattern]) => pattern.test(character)).map(([script]) => script);
}

/** `value` as a message or a terminal can show it: each character rule 2 refuses written as its code point. */
export function shownSafely(value: string): string {
  return value.replace(new RegExp(`${BIDI_CONTROL.source}|${INVISIBLE.source}`, 'gu'), (character) => `<${codePoint(character)}>`);
}

const codePoint = (character: string) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a word mixes scripts a look-alike could hide in, or null when its letters agree. */
function mixedScriptProblem(word: string): string | null {
  const sets: Script[][] = [];
  for (const character of word) {
    const scripts = scriptsOf(character);
    if (scripts === null) continue;
    if (scripts.length === 0)
      return `contains ${codePoint(character)}, of a script not used for identifiers (UAX #31 recommends a list of scripts)`;
    sets.push(scripts);
  }
  if (sets.length === 0) return null;
  const common = sets.reduce((shared, scripts) => shared.filter((script) => scripts.includes(script)));
  if (common.length > 0) return null;
  if (ALLOWED_MIXTURES.some((mixture) => sets.every((scripts) => scripts.some((script) => mixture.has(script))))) return null;
  return `mixes the letters of several scripts in the word "${word}": a look-alike of another word (such as a Cyrillic "о" in a Latin word) is not allowed`;
}

const MARK = /^\p{M}$/u;
const ENCLOSING_MARK = /^\p{Me}$/u;
const NONSPACING_MARK = /^\p{Mn}$/u;
const LETTER = /^\p{L}$/u;
/** Letters with a dot of their own (`i`, `j`, …): a dot above on them looks like the letter alone (UTS #39 §5.4). */
const SOFT_DOTTED = /^\p{Soft_Dotted}$/u;
const COMBINING_DOT_ABOVE = '\u0307';
/** UTS #39 §5.4: more nonspacing marks than this in a row are refused. */
const MAX_NONSPACING_MARKS = 4;

/**
 * Why a word's combining marks do not sit on a letter as its script writes them, or null (rule 4).
 * Read in NFD, so a mark composed into a letter counts too (`á` + U+0301 is `a` and U+0301 twice).
 */
function markProblem(word: string): string | null {
  let base: string | null = null;
  let previous: string | null = null;
  let nonspacing = 0;
  for (const character of word.normalize('NFD')) {
    if (!MARK.test(character)) {
      base = LETTER.test(character) ? character : null;
      previous = character;
      nonspacing = 0;
      continue;
    }
    const named = codePoint(character);
    if (ENCLOSING_MARK.test(character)) return `contains ${named}, an enclosing mark (not a character of identifiers, UAX #31)`;
    if (base === null) return `contains ${named}, a combining mark with no letter before it`;
    const markScripts = scriptsOf(character);
    const baseScripts = scriptsOf(base);
    // A script not used for identifiers is mixedScriptProblem's to name.
    if (markScripts?.length && baseScripts?.length && !markScripts.some((script) => baseScripts.includes(script))) {
      return `contains ${named}, a mark of another script than the letter ${codePoint(base)} it follows`;
    }
    if (character === previous) return `contains ${named} twice in a row (UTS #39 §5.4)`;
    if (character === COMBINING_DOT_ABOVE && SOFT_DOTTED.test(base)) {
      return `contains ${named} on ${codePoint(base)}, a letter with a dot of its own: it looks like the letter alone (UTS #39 §5.4)`;
    }
    if (NONSPACING_MARK.test(character) && ++nonspacing > MAX_NONSPACING_MARKS) {
      return `contains more than ${MAX_NONSPACING_MARKS} combining marks in a row (UTS #39 §5.4)`;
    }
    previous = character;
  }
  return null;
}

const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The zero of the decimal number system `character` is a digit of (`0` for `7`, `٠` for `٧`), or null
 * for a character that is no decimal digit. Unicode encodes every system's digits as one run of ten
 * from zero (The Unicode Standard §4.6, Numeric Value), and systems may sit back to back (the five
 * mathematical ones), so the zero is ten steps back from the run's start at a time.
 */
export function decimalZeroOf(character: string): number | null {
  if (!DECIMAL_DIGIT.test(character)) return null;
  const at = character.codePointAt(0)!;
  let start = at;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return start + Math.floor((at - start) / 10) * 10;
}

/** Why the digits of `value` are of several number systems, or null (rule 5). */
function mixedNumberProblem(value: string): string | null {
  let first: { character: string; zero: number } | null = null;
  for (const character of value) {
    const zero = decimalZeroOf(character);
    if (zero === null) continue;
    if (first === null) first = { character, zero };
    else if (zero !== first.zero) {
      return (
        `mixes the digits of several number systems (${codePoint(first.character)} and ${codePoint(character)}): ` +
        'a number that looks like another is not allowed (UTS #39 §5.3)'
      );
    }
  }
  return null;
}

function invisibleProblem(value: string): string | null {
  for (const character of value) {
    if (BIDI_CONTROL.test(character)) return `contains ${codePoint(character)}, a bidirectional control character`;
    if (INVISIBLE.test(character)) return `contains ${codePoint(character)}, an invisible or control character`;
  }
  return null;
}

/**
 * Why `value` breaks rules 2 to 5, or null when it keeps them: checked as typed (so the message names
 * the code point the person typed, not what NFKC made of it) and once normalised. The message names
 * the code point, never shows it (it may be invisible or reorder the text around it).
 */
export function identifierProblem(value: string): string | null {
  const normalised = normaliseIdentifier(value);
  const invisible = invisibleProblem(value) ?? invisibleProblem(normalised);
  if (invisible) return invisible;
  for (const word of normalised.split(WORD_SEPARATORS)) {
    const problem = markProblem(word) ?? mixedScriptProblem(word);
    if (problem) return problem;
  }
  return mixedNumberProblem(normalised);
}

/** The rule as a sentence, for the document's schema descriptions and for messages. */
const IDENTIFIER_RULE =
  'Normalised to Unicode NFKC before it is checked and stored (fullwidth, ligature and other compatibility forms become plain letters); ' +
  'no invisible, control or bidirectional-control characters; each word in one script (UTS #39 highly restrictive), of the scripts UAX #31 recommends; ' +
  'combining marks only on a letter of their script (UTS #39 §5.4); digits of one number system (UTS #39 §5.3).';

/**
 * An identifier field of an API body: refused with the rule's reason, then normalised (the value the
 * handler sees and stores is the NFKC form) and held to the field's own `pattern` and length.
 */
export function identifierSchema(options: { pattern: RegExp; patternMessage: string; maxCharacters: number; description: string }) {
  return z
    .string()
    .check(
      // Before normalising, so the reason names the character as it was sent.
      z.superRefine((value, context) => {
        const problem = identifierProblem(value);
        if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
      }),
      z.normalize('NFKC'),
      z.minLength(1),
      z.refine((value) => [...value].length <= options.maxCharacters, `must be at most ${options.maxCharacters} characters`),
      z.regex(options.pattern, options.patternMessage),
    )
    .register(z.globalRegistry, { description: `${options.description}. ${IDENTIFIER_RULE}`, maxLength: options.maxCharacters });
}
