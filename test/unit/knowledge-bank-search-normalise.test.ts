import { describe, expect, it } from 'vitest';
import { arabicStem } from '../../lib/knowledge-bank/search/arabic-stemmer.ts';
import { normaliseText, termOf, termsOf, tokensOf } from '../../lib/knowledge-bank/search/normalise.ts';

describe('knowledge-bank search: Arabic normalisation', () => {
  it('removes tashkeel so a word with diacritics equals the bare word', () => {
    expect(normaliseText('كَيْفَ أُغَيِّرُ كَلِمَةَ المُرُورِ')).toBe(normaliseText('كيف اغير كلمه المرور'));
  });

  it('removes tatweel', () => {
    expect(normaliseText('الفـــاتورة')).toBe('الفاتوره');
  });

  it('folds every alef form to bare alef', () => {
    expect(normaliseText('أإآٱا')).toBe('ااااا');
    expect(normaliseText('إعادة')).toBe(normaliseText('اعاده'));
  });

  it('folds alef maqsura to yaa and taa marbuta to haa', () => {
    expect(normaliseText('مستشفى')).toBe('مستشفي');
    expect(normaliseText('مدرسة')).toBe('مدرسه');
  });

  it('turns Arabic-Indic and extended Arabic-Indic digits into ASCII', () => {
    expect(normaliseText('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789');
    expect(normaliseText('۰۱۲۳۴۵۶۷۸۹')).toBe('0123456789');
    expect(normaliseText('خطة ٢٠٢٤')).toBe('خطه 2024');
  });

  it('turns presentation forms into ordinary letters', () => {
    expect(normaliseText('\uFEFB')).toBe('لا'); // the lam-alef ligature
  });
});

describe('knowledge-bank search: terms', () => {
  it('stems English words to one term', () => {
    expect(termOf('billing')).toBe(termOf('billed'));
    expect(termOf('Invoices')).toBe(termOf('invoice'));
    expect(termOf('Configuration')).toBe(termOf('configurations'));
  });

  it('drops stop words in both languages', () => {
    expect(termOf('the')).toBeNull();
    expect(termOf('How')).toBeNull();
    expect(termOf('في')).toBeNull();
    expect(termOf('عَلَى')).toBeNull();
  });

  it('indexes an Arabic word by its light stem and as written (normalised)', () => {
    expect(termsOf('الفَاتُورَة')).toEqual(['فاتور', 'الفاتوره']);
    expect(termsOf('الفواتير')).toEqual(['فواتير', 'الفواتير']);
    expect(termsOf('فواتير')).toEqual(['فواتير']);
  });

  it('finds words with their offsets, diacritics kept inside the word', () => {
    const text = 'Reset — كَلِمَة المرور!';
    expect(tokensOf(text).map(({ text: word, start, end }) => [word, text.slice(start, end) === word])).toEqual([
      ['Reset', true],
      ['كَلِمَة', true],
      ['المرور', true],
    ]);
  });
});

describe('knowledge-bank search: Arabic light stemming', () => {
  it('takes off the definite article and the conjunctions and prepositions joined to it', () => {
    for (const word of ['الاسترداد', 'والاسترداد', 'بالاسترداد', 'كالاسترداد', 'فالاسترداد']) expect(arabicStem(word)).toBe('استرداد');
    expect(arabicStem('للطلب')).toBe('طلب');
  });

  it('takes off one plural, dual, possessive or nisba suffix', () => {
    expect(arabicStem('تحليلات')).toBe('تحليل');
    expect(arabicStem('مسؤولون')).toBe('مسؤول');
    expect(arabicStem('مسؤولين')).toBe('مسؤول');
    expect(arabicStem('حسابان')).toBe('حساب');
    expect(arabicStem('حسابها')).toBe('حساب');
    expect(arabicStem(normaliseText('خصوصية'))).toBe('خصوص');
    expect(arabicStem('للطلبات')).toBe('طلب');
  });

  it('takes off a final taa marbuta, so a singular meets its plural in ات', () => {
    expect(arabicStem(normaliseText('مهمة'))).toBe('مهم');
    expect(arabicStem('مهمات')).toBe('مهم');
    expect(arabicStem(normaliseText('الفاتورة'))).toBe(arabicStem('فاتورات'));
  });

  it('leaves short words and root letters alone', () => {
    expect(arabicStem('وصل')).toBe('وصل');
    expect(arabicStem('الم')).toBe('الم');
    expect(arabicStem('بين')).toBe('بين');
    expect(arabicStem('فواتير')).toBe('فواتير');
  });
});
