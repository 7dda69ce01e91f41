/**
 * The identifier rule (lib/platform/identifiers.ts): NFKC, nothing invisible, one script a word.
 * The cases of issue 27 item 15 one by one, then properties over generated strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { parseLabels } from '../../lib/admin/workspaces.ts';
import { SLUG_MAX, SLUG_PATTERN, slugify } from '../../lib/knowledge-bank/slugs.ts';
import { identifierProblem, identifierSchema, normaliseIdentifier } from '../../lib/platform/identifiers.ts';

const slug = identifierSchema({ pattern: SLUG_PATTERN, patternMessage: 'pattern', maxCharacters: SLUG_MAX, description: 'A slug' });
/** The stored form of a typed slug, or the first reason it is refused. */
const typed = (value: string) => {
  const parsed = z.safeParse(slug, value);
  return parsed.success ? parsed.data : `refused: ${parsed.error.issues[0]!.message}`;
};

/** Invisible and reordering characters the issue and Unicode's lists name (default-ignorable, bidi controls, fillers). */
const INVISIBLES = [
  '\u3164',
  '\uFFA0',
  '\u115F',
  '\u1160',
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\uFEFF',
  '\u00AD',
  '\u034F',
  '\uFE0F',
  '\u{E0041}',
];
const BIDI_CONTROLS = [
  '\u202A',
  '\u202B',
  '\u202C',
  '\u202D',
  '\u202E',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\u200E',
  '\u200F',
  '\u061C',
];

describe('the identifier rule, on the cases of issue 27', () => {
  it.each([
    ['reset-your-password', 'reset-your-password'],
    ['reset-your-password\u3164', 'refused: contains U+3164, an invisible or control character'],
    ['\u3164', 'refused: contains U+3164, an invisible or control character'],
    ['\uFFA0', 'refused: contains U+FFA0, an invisible or control character'],
    ['passw\u043Erd', 'refused: mixes'],
    ['step-\uFF13', 'step-3'],
    ['\uFB00', 'ff'],
    ['\u{1D41A}\u{1D41B}', 'ab'],
    ['cafe\u0301', 'café'],
    ['café', 'café'],
    ['\u202Eweb', 'refused: contains U+202E, a bidirectional control character'],
    ['كيفية-إعادة-تعيين-كلمة-المرور', 'كيفية-إعادة-تعيين-كلمة-المرور'],
    ['إعادة-password', 'إعادة-password'],
    ['\uFEFB-\uFEF7', 'لا-لأ'],
    ['пароль', 'пароль'],
    ['日本語-ひらがな-カタカナ', '日本語-ひらがな-カタカナ'],
  ])('%j is stored as %j', (input, outcome) => {
    const result = typed(input);
    if (outcome.startsWith('refused')) expect(result.startsWith(outcome), result).toBe(true);
    else expect(result).toBe(outcome);
  });

  it('makes no slug of invisible characters and leaves a look-alike word out of a title’s slug', () => {
    expect(slugify('Reset your password\u3164')).toBe('reset-your-password');
    expect(slugify('new\u200B\u3164')).toBe('new');
    expect(slugify('Reset your passw\u043Erd today')).toBe('reset-your-today');
    expect(slugify('\uFF32\uFF45\uFF53\uFF45\uFF54 \uFB00')).toBe('reset-ff');
  });

  it('takes idea labels as identifiers: normalised, invisible and bidi characters refused, duplicates found after normalising', () => {
    expect(parseLabels('\uFF4E\uFF45\uFF57, In review ,قيد المراجعة', 'status')).toEqual(['new', 'In review', 'قيد المراجعة']);
    expect(() => parseLabels('new,new\u3164', 'status')).toThrow(/Invalid status "new<U\+3164>": it contains U\+3164/);
    expect(() => parseLabels('\u202Eweb', 'module')).toThrow(/bidirectional control/);
    expect(() => parseLabels('new,\uFF4E\uFF45\uFF57', 'status')).toThrow(/Duplicate status/);
    expect(() => parseLabels('in  review', 'status')).toThrow(/one space between words/);
    expect(() => parseLabels('passw\u043Erd', 'status')).toThrow(/mixes the letters of several scripts/);
  });
});

/** Words of one script, as people type them. */
const latinWord = fc.stringMatching(/^[a-z]{1,8}$/);
const arabicWord = fc
  .array(fc.constantFrom(...'ابتثجحخدذرزسشصضطظعغفقكلمنهوي'), { minLength: 1, maxLength: 8 })
  .map((letters) => letters.join(''));
const cyrillicWord = fc.array(fc.constantFrom(...'абвгдежзийклмнопрстуфхцчшщыэюя'), { minLength: 1, maxLength: 8 }).map((l) => l.join(''));
const word = fc.oneof(latinWord, arabicWord, cyrillicWord, fc.stringMatching(/^[0-9]{1,4}$/));
const identifier = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join('-'));

describe('properties of the identifier rule', () => {
  it('accepts hyphen-joined words of one script each, and stores them unchanged', () => {
    fc.assert(fc.property(identifier, (value) => typed(value) === value));
  });

  it('normalising is idempotent and gives the same identifier for every normal form of the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (value) => {
        const normal = normaliseIdentifier(value);
        expect(normaliseIdentifier(normal)).toBe(normal);
        for (const form of ['NFC', 'NFD', 'NFKC', 'NFKD'] as const) expect(normaliseIdentifier(value.normalize(form))).toBe(normal);
      }),
    );
  });

  it('refuses an accepted identifier with any invisible or bidi-control character put anywhere in it', () => {
    fc.assert(
      fc.property(identifier, fc.constantFrom(...INVISIBLES, ...BIDI_CONTROLS), fc.nat(), (value, hidden, at) => {
        const characters = [...value];
        characters.splice(at % (characters.length + 1), 0, hidden);
        expect(typed(characters.join(''))).toMatch(/^refused: contains U\+/);
      }),
    );
  });

  it('refuses a word with a letter of another script in it, as Cyrillic or Greek look-alikes of Latin letters', () => {
    const lookAlikes = ['\u0430', '\u0435', '\u043E', '\u0440', '\u0441', '\u0445', '\u03BF', '\u03B1', '\u0627'];
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,8}$/), fc.constantFrom(...lookAlikes), fc.nat(), (latin, foreign, at) => {
        const characters = [...latin];
        characters.splice(1 + (at % (characters.length - 1)), 0, foreign);
        expect(identifierProblem(characters.join(''))).toMatch(/mixes the letters of several scripts/);
      }),
    );
  });

  it('gives every title a slug that keeps the rule and the slug pattern, or none', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (title) => {
        const made = slugify(title);
        if (made === '') return;
        expect(identifierProblem(made)).toBeNull();
        expect(normaliseIdentifier(made)).toBe(made);
        expect(made).toMatch(SLUG_PATTERN);
      }),
      { numRuns: 500 },
    );
  });
});
