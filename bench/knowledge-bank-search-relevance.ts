/**
 * The judged query set of the search bench: for sampled articles of the generated corpus, a query
 * made of two of the article's least common words (so one article is the right answer), typed the
 * way readers type, with one variation each: English exact, one typo, an unfinished last word, a
 * plural; Arabic without diacritics, another alef form, one typo, an unfinished last word, the
 * definite article added or dropped, a plural. Each query is judged by the article it was made from:
 * recall@10 (is it in the first ten) and MRR (1 / its rank, 0 past ten).
 */
import { normaliseText, tokenize } from '../lib/knowledge-bank/search/normalise.ts';
import { asTyped, type GeneratedArticle, withTypo } from './knowledge-bank-search-corpus.ts';

export interface JudgedQuery {
  q: string;
  articleId: string;
  language: 'en' | 'ar';
  variation: string;
}

const ENGLISH_VARIATIONS = ['exact', 'typo', 'prefix', 'plural'] as const;
const ARABIC_VARIATIONS = ['no diacritics', 'alef form', 'typo', 'prefix', 'definite article', 'plural'] as const;

function textOf(article: GeneratedArticle, language: 'en' | 'ar'): string {
  const { content } = article;
  const blocks = content.blocks.flatMap((block) =>
    'text' in block ? ((block.text as Record<string, Array<{ text: string }>>)[language] ?? []) : [],
  );
  return [language === 'en' ? content.summaryEn : content.summaryAr, ...blocks.map((run) => run.text)].join(' ');
}

/** How many articles hold each (normalised) word, per language. */
function documentFrequencies(corpus: readonly GeneratedArticle[], language: 'en' | 'ar'): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const article of corpus)
    for (const word of new Set(tokenize(textOf(article, language)).map(normaliseText)))
      frequencies.set(word, (frequencies.get(word) ?? 0) + 1);
  return frequencies;
}

/** Two of the article's rarest words of at least five letters, as written in it. */
function rareWords(article: GeneratedArticle, language: 'en' | 'ar', frequencies: ReadonlyMap<string, number>): string[] {
  const words = [...new Set(tokenize(textOf(article, language)))].filter(
    (word) => /\p{L}/u.test(word) && [...normaliseText(word)].length >= 5,
  );
  return words.sort((a, b) => (frequencies.get(normaliseText(a)) ?? 0) - (frequencies.get(normaliseText(b)) ?? 0)).slice(0, 2);
}

function englishVariant(words: string[], variation: (typeof ENGLISH_VARIATIONS)[number]): string {
  const [first, last] = words as [string, string];
  if (variation === 'typo') return `${withTypo(first)} ${last}`;
  if (variation === 'prefix') return `${first} ${last.slice(0, Math.max(3, last.length - 3))}`;
  if (variation === 'plural') return `${first}s ${last}`;
  return `${first} ${last}`;
}

function arabicVariant(words: string[], variation: (typeof ARABIC_VARIATIONS)[number]): string {
  const [first, last] = words.map(asTyped) as [string, string];
  if (variation === 'alef form') return `${first.replace(/^ا/, 'أ').replace(/ا/, 'إ')} ${last}`;
  if (variation === 'typo') return `${withTypo(first)} ${last}`;
  if (variation === 'prefix') return `${first} ${last.slice(0, Math.max(3, last.length - 2))}`;
  if (variation === 'definite article') return `${first.startsWith('ال') ? first.slice(2) : `ال${first}`} ${last}`;
  if (variation === 'plural') return `${first.replace(/[هة]$/, '')}ات ${last}`;
  return `${first} ${last}`;
}

/** At least `perLanguage` queries in each language, spread over the corpus and the variations. */
export function judgedQueries(corpus: readonly GeneratedArticle[], perLanguage: number): JudgedQuery[] {
  const english = documentFrequencies(corpus, 'en');
  const arabic = documentFrequencies(corpus, 'ar');
  const step = Math.max(1, Math.floor(corpus.length / perLanguage));
  const queries: JudgedQuery[] = [];
  for (let n = 0; n < perLanguage; n++) {
    const article = corpus[(n * step) % corpus.length]!;
    const en = rareWords(article, 'en', english);
    const ar = rareWords(article, 'ar', arabic);
    const enVariation = ENGLISH_VARIATIONS[n % ENGLISH_VARIATIONS.length]!;
    const arVariation = ARABIC_VARIATIONS[n % ARABIC_VARIATIONS.length]!;
    if (en.length === 2)
      queries.push({ q: englishVariant(en, enVariation), articleId: article.meta.id, language: 'en', variation: enVariation });
    if (ar.length === 2)
      queries.push({ q: arabicVariant(ar, arVariation), articleId: article.meta.id, language: 'ar', variation: arVariation });
  }
  return queries;
}

export interface Relevance {
  queries: number;
  recallAt10: number;
  mrr: number;
}

/** recall@10 and MRR of `search` (article ids, best first) over `queries`, by `group`. */
export function relevanceOf(
  queries: readonly JudgedQuery[],
  search: (q: string) => string[],
  group: (query: JudgedQuery) => string,
): Map<string, Relevance> {
  const sums = new Map<string, { queries: number; found: number; reciprocal: number }>();
  for (const query of queries) {
    const rank = search(query.q).slice(0, 10).indexOf(query.articleId);
    for (const key of [group(query), `${query.language === 'en' ? 'English' : 'Arabic'}, all`]) {
      const sum = sums.get(key) ?? { queries: 0, found: 0, reciprocal: 0 };
      sum.queries += 1;
      if (rank >= 0) {
        sum.found += 1;
        sum.reciprocal += 1 / (rank + 1);
      }
      sums.set(key, sum);
    }
  }
  return new Map(
    [...sums]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, sum]) => [key, { queries: sum.queries, recallAt10: sum.found / sum.queries, mrr: sum.reciprocal / sum.queries }]),
  );
}
