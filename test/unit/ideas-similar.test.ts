/**
 * Similar ideas are judged, not asserted: over the labelled paraphrase pairs (English, Arabic and
 * mixed), the idea a query paraphrases must be among the first three answers for at least 80% of
 * queries, and the plain term match it improves on is measured beside it.
 */
import { describe, expect, it } from 'vitest';
import { paraphraseIdeas, recallAt3 } from '../../bench/ideas-similar-relevance.ts';
import { SimilarityIndex } from '../../lib/ideas/similar/index.ts';

describe('similar ideas', () => {
  it('finds the paraphrased idea among the first three for at least 80% of the labelled queries, in each language', () => {
    const { index, pairs } = paraphraseIdeas();
    const overall = recallAt3(index, pairs);
    expect(overall).toBeGreaterThanOrEqual(0.8);
    for (const language of ['en', 'ar'] as const)
      expect(
        recallAt3(
          index,
          pairs.filter((pair) => pair.language === language),
        ),
        language,
      ).toBeGreaterThanOrEqual(0.8);
  });

  it('stems and folds Arabic and English the way the knowledge bank does', () => {
    const index = new SimilarityIndex();
    index.put({ id: 'a', title: 'الفواتير الشهرية' });
    index.put({ id: 'b', title: 'Exporting invoices' });
    index.put({ id: 'c', title: 'Something else entirely' });
    expect(index.similarTo('فواتير', { limit: 3 }).map((match) => match.id)).toEqual(['a']);
    const [english] = index.similarTo('export of an invoice', { limit: 3 });
    expect(english).toMatchObject({ id: 'b', matchedTerms: ['export', 'invoice'] });
    expect(english!.score).toBeGreaterThan(0.9);
  });

  it('scores from 0 to 1, leaves out the excluded idea and what falls under the threshold, and forgets removed ideas', () => {
    const index = new SimilarityIndex();
    index.put({ id: 'a', title: 'Dark mode' });
    index.put({ id: 'b', title: 'Dark mode for the portal', description: 'Night theme' });
    expect(index.similarTo('Dark mode', { limit: 5, exclude: 'a' }).map((match) => match.id)).toEqual(['b']);
    expect(index.similarTo('Dark mode', { limit: 5 })[0]).toMatchObject({ id: 'a', score: 1 });
    expect(index.similarTo('portal', { limit: 5, minScore: 0.99 })).toEqual([]);
    index.remove('a');
    expect(index.similarTo('Dark mode', { limit: 5 }).map((match) => match.id)).toEqual(['b']);
    expect(index.similarTo('the of and', { limit: 5 })).toEqual([]);
  });
});
