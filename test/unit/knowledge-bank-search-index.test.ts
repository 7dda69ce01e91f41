import { describe, expect, it } from 'vitest';
import type { Block } from '../../lib/knowledge-bank/blocks.ts';
import {
  type LiveContent,
  type PublishedArticle,
  type SearchDocument,
  searchDocumentsOf,
} from '../../lib/knowledge-bank/search/documents.ts';
import { resultsOf } from '../../lib/knowledge-bank/search/results.ts';
import {
  applyChanges,
  articleCount,
  compact,
  createIndex,
  loadIndex,
  type SearchIndex,
  type SearchQuery,
  searchIndex,
  serialiseIndex,
} from '../../lib/knowledge-bank/search/search-index.ts';
import { SEARCH_CORPUS } from '../support/knowledge-bank-search-corpus.ts';

const CATEGORY = { general: '00000000-0000-4000-8000-000000000001', billing: '00000000-0000-4000-8000-000000000002' };

/** The live content each article's results are shown from (the search function reads it from the table). */
const contents = new Map<string, LiveContent>();

function documentsOf(article: (typeof SEARCH_CORPUS)[number]) {
  const meta: PublishedArticle = {
    id: article.key,
    slug: article.key,
    categoryId: article.key.startsWith('billing') ? CATEGORY.billing : CATEGORY.general,
    visibility: article.visibility,
    sourceLanguage: article.sourceLanguage,
    tags: article.tags,
  };
  const content: LiveContent = {
    titleEn: article.titleEn ?? null,
    titleAr: article.titleAr ?? null,
    summaryEn: article.summaryEn ?? null,
    summaryAr: article.summaryAr ?? null,
    blocks: article.blocks.map((block, i) => ({ ...block, id: `b${i}` }) as Block),
  };
  contents.set(article.key, content);
  return searchDocumentsOf(meta, content);
}

/** What GET /knowledge-bank/search answers from this index. */
function searchIn(index: SearchIndex, query: SearchQuery) {
  const { hits, total } = searchIndex(index, query);
  return { results: resultsOf(hits, contents), total };
}

const index = createIndex(SEARCH_CORPUS.flatMap(documentsOf));
const search = (q: string, options: Partial<SearchQuery> = {}) => searchIn(index, { q, limit: 10, ...options });
const ids = (q: string, options: Partial<SearchQuery> = {}) => search(q, options).results.map((r) => r.articleId);

describe('knowledge-bank search: matching', () => {
  it('finds Arabic written with diacritics from a query without them', () => {
    expect(ids('كلمة المرور')).toEqual(['reset-password']);
    expect(ids('الشحن')).toEqual(['shipping-ar']);
  });

  it('folds alef forms, taa marbuta and Arabic-Indic digits on both sides', () => {
    expect(ids('اعادة تعيين')).toEqual(['reset-password']);
    expect(ids('إعاده')).toEqual(['reset-password']);
    expect(ids('٢٠٠ ريال')).toEqual(['shipping-ar']);
    expect(ids('200')).toEqual(['shipping-ar']);
  });

  it('stems Arabic lightly: a word without the definite article finds it with one, and the reverse', () => {
    // The title says "تَنْزِيلُ الفَوَاتِيرِ".
    expect(ids('فواتير')).toEqual(['billing-invoices']);
    expect(ids('الفواتير', { locale: 'ar' })).toEqual(['billing-invoices']);
    expect(ids('وفواتير')).toEqual(['billing-invoices']);
  });

  it('highlights the word as written when a query matched its stem ("استرداد" in "الاسترداد")', () => {
    const refunds = documentsOf({
      ...SEARCH_CORPUS[4]!,
      key: 'refunds-ar',
      titleAr: 'سِيَاسَةُ المَدْفُوعَاتِ',
      summaryAr: undefined,
      blocks: [{ type: 'paragraph', text: { ar: [{ text: 'يُمْكِنُكَ طَلَبُ الاسْتِرْدَادِ خِلَالَ ١٤ يَوْمًا مِنَ الشِّرَاءِ.' }] } }],
    });
    const [hit] = searchIn(createIndex(refunds), { q: 'استرداد', limit: 10 }).results;
    expect(hit?.articleId).toBe('refunds-ar');
    expect(hit?.snippet.highlights.map(([s, e]) => hit.snippet.text.slice(s, e))).toEqual(['الاسْتِرْدَادِ']);
  });

  it('stems English: "billing" finds "Billing", "invoice" finds "Invoices"', () => {
    expect(ids('invoice')).toEqual(['billing-invoices']);
    expect(ids('downloading invoices')).toEqual(['billing-invoices']);
  });

  it('requires every term', () => {
    expect(ids('password minutes')).toEqual(['reset-password']);
    expect(ids('password profile')).toEqual(['password-faq']);
    expect(ids('password shipping')).toEqual([]);
  });

  it('matches the last term as a prefix, and only the last', () => {
    expect(ids('subscri')).toEqual(['billing-invoices']);
    expect(ids('subscri invoice')).toEqual([]);
  });

  it('tolerates one typo in words of five letters or more, none in shorter ones', () => {
    expect(ids('pasword reset')).toEqual(['reset-password']);
    expect(ids('invoces')).toEqual(['billing-invoices']);
    expect(ids('emal')).toEqual([]);
    expect(ids('passwrd sing')).toEqual([]);
  });

  it('ranks a title match above a summary match above a tag match above a body match', () => {
    // "password": title of reset-password, tag of password-faq, body of password-policy.
    expect(ids('password')).toEqual(['reset-password', 'password-faq', 'password-policy']);
    // "account": summary of password-faq (and reset-password), tag of reset-password, body nowhere else.
    expect(ids('account').slice(0, 2).sort()).toEqual(['password-faq', 'reset-password']);
  });

  it('matches tags from either locale', () => {
    expect(ids('shipping', { locale: 'ar' })).toEqual(['shipping-ar']);
    expect(ids('billing', { locale: 'ar' })).toEqual(['billing-invoices']);
  });

  it('ignores stop words and answers nothing for a query of stop words only', () => {
    expect(ids('how do I reset my password')).toEqual(['reset-password']);
    expect(search('the of and')).toEqual({ results: [], total: 0 });
  });
});

describe('knowledge-bank search: ranking exact forms', () => {
  const arabicArticle = (id: string, titleAr: string, body: string): SearchDocument[] =>
    searchDocumentsOf(
      { id, slug: id, categoryId: CATEGORY.general, visibility: 'public', sourceLanguage: 'ar', tags: [] },
      {
        titleEn: null,
        titleAr,
        summaryEn: null,
        summaryAr: null,
        blocks: [{ id: 'b0', type: 'paragraph', text: { en: [], ar: [{ text: body }] } } as unknown as Block],
      },
    );
  const small = createIndex([
    ...arabicArticle('accounts', 'إدارة الفريق', 'راجع الحسابات المفتوحة كل شهر.'),
    ...arabicArticle('account', 'إعدادات المتجر', 'راجع حسابها من صفحة التسجيل.'),
    ...arabicArticle('hossam', 'حسام', 'مقالة عن فريق الدعم.'),
  ]);
  const found = (q: string) => searchIndex(small, { q, limit: 10 }).hits.map((hit) => hit.articleId);

  it('ranks the word as typed above a word that only shares its stem', () => {
    expect(found('الحسابات')).toEqual(['accounts', 'account']);
  });

  it('does not stretch a long word\'s short stem by a typo: "الحسابات" does not find "حسام"', () => {
    expect(found('الحسابات')).not.toContain('hossam');
    // The stem alone is exact, so a reader who types it still finds both forms.
    expect(found('حساب').sort()).toEqual(['account', 'accounts']);
  });
});

describe('knowledge-bank search: filters and results', () => {
  it('filters by visibility, category and locale', () => {
    expect(ids('password', { visibility: 'public' })).toEqual(['reset-password', 'password-faq']);
    expect(ids('password', { visibility: 'internal' })).toEqual(['password-policy']);
    expect(ids('invoices', { categoryId: CATEGORY.general })).toEqual([]);
    expect(ids('invoices', { categoryId: CATEGORY.billing })).toEqual(['billing-invoices']);
    expect(ids('المرور', { locale: 'en' })).toEqual([]);
  });

  it('answers the title in the language the article matched in, else in its source language', () => {
    expect(search('كلمة المرور', { locale: 'ar' }).results[0]).toMatchObject({
      articleId: 'reset-password',
      title: 'إِعَادَةُ تَعْيِينِ كَلِمَةِ المُرُورِ',
    });
    expect(search('password', { locale: 'en' }).results[0]?.title).toBe('Reset your password');
    // Found by its tag from an English search, it answers with its Arabic (source) title.
    expect(search('shipping', { locale: 'en' }).results[0]?.title).toBe('سِيَاسَةُ الشَّحْنِ وَالتَّوْصِيلِ');
    // Without locale: an Arabic query matches the Arabic text of an English article, and the title
    // is the Arabic one, in the snippet's language (the rule of docs/knowledge-bank.md).
    const arabicMatch = search('كلمة المرور').results[0]!;
    expect(arabicMatch.title).toBe('إِعَادَةُ تَعْيِينِ كَلِمَةِ المُرُورِ');
    expect(arabicMatch.snippet.text).toContain('المُرُورِ');
  });

  it('lists an article once when both of its locales match, and counts articles in total', () => {
    const { results, total } = search('security');
    expect(new Set(results.map((r) => r.articleId)).size).toBe(results.length);
    expect(total).toBe(2);
    expect(search('password', { limit: 1 })).toMatchObject({ total: 3, results: [{ articleId: 'reset-password' }] });
  });

  it('highlights the matching words of the snippet, in Arabic as in English', () => {
    const english = search('invoices').results[0]!.snippet;
    expect(english.highlights.map(([start, end]) => english.text.slice(start, end))).toEqual(['invoice', 'Invoices']);
    const arabic = search('كلمة المرور', { locale: 'ar' }).results[0]!.snippet;
    const words = arabic.highlights.map(([start, end]) => arabic.text.slice(start, end));
    expect(words).toContain('كَلِمَةَ');
    expect(words).toContain('المُرُورِ');
  });

  it('cuts a long text around the first match', () => {
    const long = documentsOf({
      ...SEARCH_CORPUS[3]!,
      key: 'long',
      summaryEn: undefined,
      blocks: [
        {
          type: 'paragraph',
          text: {
            en: [
              {
                text: `${'Lorem ipsum dolor sit amet. '.repeat(14)}The refund arrives within ten days. ${'Consectetur adipiscing. '.repeat(20)}`,
              },
            ],
          },
        },
      ],
    });
    const snippet = searchIn(createIndex(long), { q: 'refund', limit: 10 }).results[0]!.snippet;
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.text.length).toBeLessThanOrEqual(182);
    expect(snippet.highlights.map(([s, e]) => snippet.text.slice(s, e))).toEqual(['refund']);
  });

  it('finds a word far into a long body, with the snippet around it', () => {
    const long = documentsOf({
      ...SEARCH_CORPUS[3]!,
      key: 'long',
      summaryEn: undefined,
      blocks: [
        { type: 'paragraph', text: { en: [{ text: `${'Lorem ipsum dolor sit amet. '.repeat(100)}The warranty lasts two years.` }] } },
      ],
    });
    const [hit] = searchIn(createIndex(long), { q: 'warranty', limit: 10 }).results;
    expect(hit?.snippet.text.startsWith('…')).toBe(true);
    expect(hit?.snippet.highlights.map(([s, e]) => hit.snippet.text.slice(s, e))).toEqual(['warranty']);
  });
});

describe('knowledge-bank search: updating and saving', () => {
  it('replaces an article in place and removes it on unpublish', async () => {
    const copy = loadIndex(serialiseIndex(index));
    const [first] = SEARCH_CORPUS;
    applyChanges(copy, [['reset-password', documentsOf({ ...first!, titleEn: 'Recover your login', summaryEn: '', blocks: [] })]]);
    expect(searchIndex(copy, { q: 'recover', limit: 10 }).hits.map((hit) => hit.articleId)).toEqual(['reset-password']);
    applyChanges(copy, [['billing-invoices', []]]);
    await compact(copy);
    expect(searchIndex(copy, { q: 'invoices', limit: 10 }).total).toBe(0);
    expect(articleCount(copy)).toBe(SEARCH_CORPUS.length - 1);
  });

  it('answers the same after a save and load', () => {
    const loaded = loadIndex(serialiseIndex(index));
    for (const q of ['password', 'كلمة المرور', 'invoces', 'subscri']) expect(searchIn(loaded, { q, limit: 10 })).toEqual(search(q));
  });
});
