/**
 * A generated bilingual help centre for the search bench: N articles, each with an English and an
 * Arabic version (the Arabic fully vocalised, with hamza forms, taa marbuta and Arabic-Indic digits,
 * as careful authors write it), drawn from a help-centre vocabulary by a seeded generator so every
 * run indexes the same text.
 */
import type { Block } from '../lib/knowledge-bank/blocks.ts';
import type { LiveContent, PublishedArticle } from '../lib/knowledge-bank/search/documents.ts';

const ENGLISH =
  'account password invoice billing subscription payment refund order shipping delivery tracking address profile email notification security login logout session device browser mobile application download upload report export import dashboard analytics integration webhook permission role administrator team member workspace project task deadline calendar schedule reminder message conversation customer support ticket priority status feedback survey question answer language translation currency discount coupon plan upgrade downgrade cancel renew trial storage backup restore archive delete settings privacy consent cookie policy terms contract signature document template workflow approval review publish draft category article search filter sort page limit error warning timeout connection network server database sync offline display theme keyboard shortcut accessibility'.split(
    ' ',
  );
const ENGLISH_GLUE = 'how to your the a with for when after before from into about and you can we will'.split(' ');
const ARABIC =
  'حِسَاب كَلِمَةُ المُرُورِ فَاتُورَة الفَوْتَرَة اشْتِرَاك دَفْع اسْتِرْدَاد طَلَب شَحْن تَوْصِيل تَتَبُّع عُنْوَان مَلَفّ بَرِيد إِشْعَار أَمَان تَسْجِيل الدُّخُول خُرُوج جَلْسَة جِهَاز مُتَصَفِّح تَطْبِيق تَنْزِيل رَفْع تَقْرِير تَصْدِير اسْتِيرَاد لَوْحَة تَحْلِيلَات تَكَامُل صَلَاحِيَّة دَوْر مُسْؤُول فَرِيق عُضْو مَشْرُوع مُهِمَّة مَوْعِد تَقْوِيم جَدْوَل تَذْكِير رِسَالَة مُحَادَثَة عَمِيل دَعْم تَذْكِرَة أَوْلَوِيَّة حَالَة مُلَاحَظَات اسْتِبْيَان سُؤَال إِجَابَة لُغَة تَرْجَمَة عُمْلَة خَصْم قَسِيمَة خُطَّة تَرْقِيَة إِلْغَاء تَجْدِيد تَجْرِبَة تَخْزِين نُسْخَة اسْتِعَادَة أَرْشِيف حَذْف إِعْدَادَات خُصُوصِيَّة مُوَافَقَة سِيَاسَة شُرُوط عَقْد تَوْقِيع مُسْتَنَد قَالِب مُرَاجَعَة نَشْر مُسَوَّدَة فِئَة مَقَالَة بَحْث تَصْفِيَة صَفْحَة خَطَأ تَحْذِير مُهْلَة اتِّصَال شَبَكَة خَادِم قَاعِدَة مُزَامَنَة عَرْض مَظْهَر لَوْحَة المَفَاتِيح إِتَاحَة مُسْتَشْفَى'.split(
    ' ',
  );
const ARABIC_GLUE = 'كَيْفَ فِي مِنْ إِلَى عَلَى مَعَ عِنْدَ بَعْدَ قَبْلَ يُمْكِنُكَ ثُمَّ'.split(' ');
const ARABIC_DIGITS = '٠١٢٣٤٥٦٧٨٩';

/** Mulberry32: a tiny seeded generator, so the corpus is the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface GeneratedArticle {
  meta: PublishedArticle;
  content: LiveContent;
  /** The English and Arabic key words of its title (what the quality check searches for). */
  titleWordsEn: string[];
  titleWordsAr: string[];
}

const LONG_TAIL = 6000;
const EN_SYLLABLES = 'ba ce di fo gu ka le mi no pu ra se ti vo zu tra pre con ex ment tion ing er al ble ous ize'.split(' ');
const AR_ROOT_LETTERS = 'بتثجحخدذرزسشصضطظعغفقكلمنهوي';
const AR_VOWELS = ['َ', 'ُ', 'ِ', 'ْ', ''];

/**
 * Real text follows Zipf's law: a few words everywhere, most words rare. The help-centre words are
 * the head; generated words (pronounceable English, vocalised Arabic) are the long tail, so posting
 * lists have realistic lengths.
 */
function vocabulary(random: () => number, head: readonly string[], language: 'en' | 'ar'): string[] {
  const words = [...head];
  const seen = new Set(words);
  while (words.length < head.length + LONG_TAIL) {
    let word = '';
    const length = 2 + Math.floor(random() * 3);
    for (let i = 0; i < length; i++) {
      if (language === 'en') word += EN_SYLLABLES[Math.floor(random() * EN_SYLLABLES.length)];
      else word += AR_ROOT_LETTERS[Math.floor(random() * AR_ROOT_LETTERS.length)]! + AR_VOWELS[Math.floor(random() * AR_VOWELS.length)]!;
    }
    if (language === 'ar' && random() < 0.3) word = `ال${word}${random() < 0.5 ? 'ة' : ''}`;
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

export function generateCorpus(count: number, seed = 13): GeneratedArticle[] {
  const random = generator(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const english = vocabulary(random, ENGLISH, 'en');
  const arabic = vocabulary(random, ARABIC, 'ar');
  // Zipf with exponent 1: rank r is drawn with probability ∝ 1/r (inverse of the harmonic CDF).
  const zipf = (list: readonly string[]) =>
    list[Math.min(list.length - 1, Math.floor(Math.exp(random() * Math.log(list.length + 1)) - 1))]!;
  const sentence = (words: readonly string[], glue: readonly string[], length: number) =>
    Array.from({ length }, (_, i) => (i % 3 === 1 ? pick(glue) : zipf(words))).join(' ');
  const ENGLISH_VOCABULARY = english;
  const ARABIC_VOCABULARY = arabic;
  const arabicNumber = () => [...String(Math.floor(random() * 1000))].map((d) => ARABIC_DIGITS[Number(d)]).join('');
  return Array.from({ length: count }, (_, n) => {
    const titleIndexes = [
      Math.floor(random() * ENGLISH.length),
      Math.floor(random() * ENGLISH.length),
      Math.floor(random() * ENGLISH.length),
    ];
    const titleWordsEn = titleIndexes.map((i) => ENGLISH[i]!);
    const titleWordsAr = titleIndexes.map((i) => ARABIC[i % ARABIC.length]!);
    const blocks: Block[] = Array.from({ length: 6 }, (_, b) => ({
      id: `b${b}`,
      type: 'paragraph',
      text: {
        en: [{ text: `${sentence(ENGLISH_VOCABULARY, ENGLISH_GLUE, 40)}.` }],
        ar: [{ text: `${sentence(ARABIC_VOCABULARY, ARABIC_GLUE, 40)} ${arabicNumber()}.` }],
      },
    }));
    return {
      meta: {
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        slug: `article-${n}`,
        categoryId: `00000000-0000-4000-9000-${String(n % 40).padStart(12, '0')}`,
        visibility: n % 5 === 0 ? 'internal' : 'public',
        sourceLanguage: n % 3 === 0 ? 'ar' : 'en',
        tags: [pick(ENGLISH), pick(ENGLISH)],
      },
      content: {
        titleEn: `${titleWordsEn.join(' ')} ${n}`,
        titleAr: `${titleWordsAr.join(' ')} ${arabicNumber()}`,
        summaryEn: sentence(ENGLISH_VOCABULARY, ENGLISH_GLUE, 18),
        summaryAr: sentence(ARABIC_VOCABULARY, ARABIC_GLUE, 18),
        blocks,
      },
      titleWordsEn,
      titleWordsAr,
    };
  });
}

/** How a reader types Arabic: no diacritics, bare alef, haa for taa marbuta. */
export function asTyped(arabic: string): string {
  return arabic
    .replace(/[\u064B-\u065F\u0670]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي');
}

/** One typo: the second-to-last letter doubled (one insertion). */
export function withTypo(word: string): string {
  return word.length < 5 ? word : `${word.slice(0, -1)}${word.at(-2)}${word.at(-1)}`;
}

/**
 * The warm queries of a corpus, four per article of an even sample of at most 100: two title words in
 * English, two in Arabic as typed, the longest English title word with a typo, and a four-letter prefix.
 */
export function warmQueries(corpus: readonly GeneratedArticle[]): string[] {
  const sample = corpus.filter((_, i) => i % Math.max(1, Math.floor(corpus.length / 100)) === 0).slice(0, 100);
  return sample.flatMap((a) => [
    a.titleWordsEn.slice(0, 2).join(' '),
    asTyped(a.titleWordsAr.slice(0, 2).join(' ')),
    withTypo(a.titleWordsEn.reduce((longest, w) => (w.length > longest.length ? w : longest), '')),
    a.titleWordsEn[0]!.slice(0, 4),
  ]);
}
