/**
 * A light Arabic stemmer after Lucene's ArabicStemmer (Larkey, Ballesteros & Connell, "Improving
 * Stemming for Arabic Information Retrieval", SIGIR 2002), the one OpenSearch's `arabic` analyzer
 * runs: one definite-article or conjunction prefix and then one plural, dual, possessive or nisba
 * suffix come off, so "الفواتير" meets "فواتير" and "الاسترداد" meets "استرداد". It works
 * on text already normalised (normalise.ts: ة is ه, ى is ي, alef forms are ا), and never shortens a
 * word below three letters. Light on purpose: it finds no roots, so "كتاب" and "مكتبة" stay apart.
 */

/** Longest first, so "وال" wins over "و". */
const PREFIXES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال', 'و'];
/**
 * Possessive, dual, plural and nisba endings (ية is يه once normalised), and a final ه (taa marbuta
 * once normalised, or the possessive "his"), so a singular in ة meets its plural in ات ("مهمة" and
 * "مهمات" both stem to "مهم"). Lucene also strips a lone ي and every suffix in turn; measured on
 * the judged queries (the bench), that cut words to two letters ("تعيين" → "تع") whose one-edit
 * neighbours are half the vocabulary, so here one suffix comes off and a stem keeps three letters.
 */
const SUFFIXES = ['ها', 'ان', 'ات', 'ون', 'ين', 'يه', 'ه'];
const MIN_STEM = 3;

function withoutPrefix(word: string): string {
  for (const prefix of PREFIXES) {
    // "و" is also a root letter ("وصل"): as Lucene, it comes off only words of four letters or more.
    if (word.length >= prefix.length + MIN_STEM && word.startsWith(prefix)) return word.slice(prefix.length);
  }
  return word;
}

/** The stem of a normalised Arabic word (the word itself when nothing comes off). */
export function arabicStem(word: string): string {
  const stem = withoutPrefix(word);
  const suffix = SUFFIXES.find((ending) => stem.length >= ending.length + MIN_STEM && stem.endsWith(ending));
  return suffix ? stem.slice(0, -suffix.length) : stem;
}
