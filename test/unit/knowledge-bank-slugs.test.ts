/** Slugs from English and Arabic titles, and the numeric suffix on a clash. */
import { describe, expect, it } from 'vitest';
import { firstFreeSlug, SLUG_MAX, SLUG_PATTERN, slugBase, slugify } from '../../lib/knowledge-bank/slugs.ts';

describe('knowledge-bank slugs', () => {
  it.each([
    ['Reset your password', 'reset-your-password'],
    ['  Billing & Invoices (2024)  ', 'billing-invoices-2024'],
    ['Café déjà vu', 'cafe-deja-vu'],
    ['كيفية إعادة تعيين كلمة المرور', 'كيفية-إعادة-تعيين-كلمة-المرور'],
    ['الأسْئِلَةُ الشَّائِعَة', 'الأسئلة-الشائعة'],
    ['مـــرحبا', 'مرحبا'],
    ['الخطوة ٣ من ١٠', 'الخطوة-3-من-10'],
    ['Step ۴', 'step-4'],
    ['!!!', ''],
  ])('turns %j into %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
    if (slug) expect(slug).toMatch(SLUG_PATTERN);
  });

  it('keeps slugs within the limit at a word boundary, in characters', () => {
    const title = Array.from({ length: 40 }, () => 'كلمة').join(' ');
    const slug = slugify(title);
    expect([...slug].length).toBeLessThanOrEqual(SLUG_MAX);
    expect(slug).toMatch(SLUG_PATTERN);
    expect(slugify('x'.repeat(200))).toBe('x'.repeat(SLUG_MAX));
  });

  it('prefers the source-language title and falls back to the other, then to a default', () => {
    expect(slugBase({ en: 'Refunds', ar: 'المبالغ المستردة' }, 'ar', 'article')).toBe('المبالغ-المستردة');
    expect(slugBase({ en: 'Refunds', ar: '؟؟' }, 'ar', 'article')).toBe('refunds');
    expect(slugBase({}, 'en', 'article')).toBe('article');
  });

  it('adds the first free numeric suffix, staying a valid slug at the length limit', () => {
    expect(firstFreeSlug('refunds', new Set())).toBe('refunds');
    expect(firstFreeSlug('refunds', new Set(['refunds', 'refunds-2']))).toBe('refunds-3');
    const long = `${'a'.repeat(77)}-bc`;
    const free = firstFreeSlug(long, new Set([long]));
    expect(free).toBe(`${'a'.repeat(77)}-2`);
    expect(free).toMatch(SLUG_PATTERN);
  });
});
