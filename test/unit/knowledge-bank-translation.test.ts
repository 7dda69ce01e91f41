/** Per-block translation status and the article rollup, with Arabic as source and as target. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, Language } from '../../lib/knowledge-bank/blocks.ts';
import {
  articleTranslations,
  blockTranslations,
  nextTranslationHashes,
  type TranslatableContent,
  type TranslationHashes,
} from '../../lib/knowledge-bank/translation.ts';
import { content, paragraph } from '../support/knowledge-bank-builders.ts';

function save(
  previous: { content: TranslatableContent; hashes: TranslationHashes } | undefined,
  next: TranslatableContent,
  source: Language = 'en',
) {
  return { content: next, hashes: nextTranslationHashes(previous, next, source) };
}

describe('knowledge-bank translation status', () => {
  it('marks a block complete when both languages are written together', () => {
    const saved = save(
      undefined,
      content([paragraph('b1', 'Open settings', 'افتح الإعدادات')], { titleEn: 'Settings', titleAr: 'الإعدادات' }),
    );
    expect(blockTranslations(saved.content, saved.hashes, 'en')).toEqual({ b1: 'complete' });
    expect(articleTranslations(saved.content, saved.hashes, 'en')).toEqual({ en: 'complete', ar: 'complete' });
  });

  it('marks a block outdated after an English-only edit, and complete again once the Arabic is rewritten', () => {
    const first = save(undefined, content([paragraph('b1', 'Open settings', 'افتح الإعدادات'), paragraph('b2', 'Then save', 'ثم احفظ')]));
    const edited = save(
      first,
      content([paragraph('b1', 'Open the settings page', 'افتح الإعدادات'), paragraph('b2', 'Then save', 'ثم احفظ')]),
    );
    expect(blockTranslations(edited.content, edited.hashes, 'en')).toEqual({ b1: 'outdated', b2: 'complete' });
    expect(articleTranslations(edited.content, edited.hashes, 'en')).toEqual({ en: 'complete', ar: 'outdated' });
    const translated = save(
      edited,
      content([paragraph('b1', 'Open the settings page', 'افتح صفحة الإعدادات'), paragraph('b2', 'Then save', 'ثم احفظ')]),
    );
    expect(blockTranslations(translated.content, translated.hashes, 'en')).toEqual({ b1: 'complete', b2: 'complete' });
  });

  it('stays outdated across saves that leave both texts alone', () => {
    const first = save(undefined, content([paragraph('b1', 'One', 'واحد')]));
    const edited = save(first, content([paragraph('b1', 'One!', 'واحد')]));
    const again = save(edited, content([paragraph('b1', 'One!', 'واحد')]));
    expect(blockTranslations(again.content, again.hashes, 'en')).toEqual({ b1: 'outdated' });
  });

  it('treats a block sent without its id as new: its translation counts as written now', () => {
    const first = save(undefined, content([paragraph('b1', 'One', 'واحد')]));
    const renamed = save(first, content([paragraph('b9', 'One changed', 'واحد')]));
    expect(blockTranslations(renamed.content, renamed.hashes, 'en')).toEqual({ b9: 'complete' });
  });

  it('reports missing blocks and a partial article', () => {
    const saved = save(undefined, content([paragraph('b1', 'One', 'واحد'), paragraph('b2', 'Two')], { titleEn: 'T', titleAr: 'ت' }));
    expect(blockTranslations(saved.content, saved.hashes, 'en')).toEqual({ b1: 'complete', b2: 'missing' });
    expect(articleTranslations(saved.content, saved.hashes, 'en')).toEqual({ en: 'complete', ar: 'partial' });
  });

  it('reports the other language missing when nothing is translated, and an empty article missing in both', () => {
    const english = save(undefined, content([paragraph('b1', 'One')], { titleEn: 'T' }));
    expect(articleTranslations(english.content, english.hashes, 'en')).toEqual({ en: 'complete', ar: 'missing' });
    const empty = save(undefined, content([]));
    expect(articleTranslations(empty.content, empty.hashes, 'en')).toEqual({ en: 'missing', ar: 'missing' });
  });

  it('uses Arabic as the reference when it is the source language', () => {
    const first = save(
      undefined,
      content([paragraph('b1', 'Refunds', 'المبالغ المستردة')], { titleAr: 'الاسترداد', titleEn: 'Refunds' }),
      'ar',
    );
    const edited = save(
      first,
      content([paragraph('b1', 'Refunds', 'المبالغ المستردة خلال ١٤ يومًا')], { titleAr: 'الاسترداد', titleEn: 'Refunds' }),
      'ar',
    );
    expect(blockTranslations(edited.content, edited.hashes, 'ar')).toEqual({ b1: 'outdated' });
    expect(articleTranslations(edited.content, edited.hashes, 'ar')).toEqual({ ar: 'complete', en: 'outdated' });
  });

  it('counts a stale title as outdated too', () => {
    const first = save(undefined, content([paragraph('b1', 'x', 'س')], { titleEn: 'Billing', titleAr: 'الفوترة' }));
    const edited = save(first, content([paragraph('b1', 'x', 'س')], { titleEn: 'Billing and invoices', titleAr: 'الفوترة' }));
    expect(articleTranslations(edited.content, edited.hashes, 'en').ar).toBe('outdated');
  });

  it('treats blocks without words (divider, code) as nothing to translate', () => {
    const blocks: Block[] = [paragraph('b1', 'One', 'واحد'), { id: 'd', type: 'divider' }, { id: 'c', type: 'code', code: 'ls' }];
    const saved = save(undefined, content(blocks));
    expect(blockTranslations(saved.content, saved.hashes, 'en')).toEqual({ b1: 'complete', d: 'complete', c: 'complete' });
  });
});

const word = fc.string({ minLength: 1, maxLength: 8 }).filter((value) => value.trim().length > 0);
const blockSpec = fc.record({ en: fc.option(word, { nil: undefined }), ar: fc.option(word, { nil: undefined }) });
const articleSpec = fc.array(blockSpec, { maxLength: 8 });
const build = (specs: Array<{ en?: string; ar?: string }>) => content(specs.map((spec, i) => paragraph(`b${i}`, spec.en, spec.ar)));

describe('knowledge-bank translation status (properties)', () => {
  it('every block with both languages written at once is complete; with English only, missing', () => {
    fc.assert(
      fc.property(articleSpec, (specs) => {
        const saved = save(undefined, build(specs));
        const statuses = blockTranslations(saved.content, saved.hashes, 'en');
        specs.forEach((spec, i) => {
          const expected = spec.ar !== undefined || spec.en === undefined ? 'complete' : 'missing';
          expect(statuses[`b${i}`]).toBe(expected);
        });
      }),
    );
  });

  it('saving the same content again never changes any status', () => {
    fc.assert(
      fc.property(articleSpec, articleSpec, (a, b) => {
        const first = save(undefined, build(a));
        const second = save(first, build(b));
        const third = save(second, build(b));
        expect(blockTranslations(third.content, third.hashes, 'en')).toEqual(blockTranslations(second.content, second.hashes, 'en'));
      }),
    );
  });

  it('changing a translated block’s source alone makes exactly that block outdated', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ en: word, ar: word }), { minLength: 1, maxLength: 8 }), fc.nat(), word, (specs, pick, suffix) => {
        const index = pick % specs.length;
        const first = save(undefined, build(specs));
        const edited = specs.map((spec, i) => (i === index ? { ...spec, en: `${spec.en}${suffix}` } : spec));
        const second = save(first, build(edited));
        const statuses = blockTranslations(second.content, second.hashes, 'en');
        specs.forEach((_, i) => {
          expect(statuses[`b${i}`]).toBe(i === index ? 'outdated' : 'complete');
        });
        expect(articleTranslations(second.content, second.hashes, 'en').ar).toBe('outdated');
      }),
    );
  });

  it('the rollup is complete exactly when every block is complete and something is translated', () => {
    fc.assert(
      fc.property(articleSpec, articleSpec, (a, b) => {
        const second = save(save(undefined, build(a)), build(b));
        const statuses = Object.values(blockTranslations(second.content, second.hashes, 'en'));
        const rollup = articleTranslations(second.content, second.hashes, 'en').ar;
        const anyArabic = b.some((spec) => spec.ar !== undefined);
        expect(rollup === 'complete').toBe(anyArabic && statuses.every((status) => status === 'complete'));
        if (statuses.includes('outdated')) expect(rollup).toBe('outdated');
      }),
    );
  });
});
