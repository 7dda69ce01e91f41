/**
 * The labelled paraphrase pairs of similar ideas (test/fixtures/idea-paraphrases.json), indexed, and
 * recall@3 over them: shared by the unit test that holds it and the bench that prints it beside a
 * plain term match (no folding, no stemming, no weights).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type IdeaText, SimilarityIndex } from '../lib/ideas/similar/index.ts';

interface ParaphrasePair {
  language: 'en' | 'ar' | 'mixed';
  idea: Omit<IdeaText, 'id'>;
  query: string;
}

export interface LabelledQuery extends ParaphrasePair {
  ideaId: string;
}

/** Anything that ranks ideas for a text: the similarity index, or the baseline. */
export interface IdeaRanker {
  similarTo(text: string, options: { limit: number }): Array<{ id: string }>;
}

const FIXTURE = join(import.meta.dirname, '../test/fixtures/idea-paraphrases.json');

/** Ids sort after any generated filler (`pair-…` > `filler-…`), so a tie never favours the right answer. */
export function paraphraseIdeas(index: SimilarityIndex = new SimilarityIndex()): { index: SimilarityIndex; pairs: LabelledQuery[] } {
  const { pairs } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { pairs: ParaphrasePair[] };
  const labelled = pairs.map((pair, i) => ({ ...pair, ideaId: `pair-${String(i).padStart(3, '0')}` }));
  for (const pair of labelled) index.put({ id: pair.ideaId, ...pair.idea });
  return { index, pairs: labelled };
}

export function recallAt3(ranker: IdeaRanker, pairs: readonly LabelledQuery[]): number {
  const found = pairs.filter((pair) => ranker.similarTo(pair.query, { limit: 3 }).some((match) => match.id === pair.ideaId));
  return found.length / pairs.length;
}

/** The baseline: ideas ranked by how many of the query's lower-cased words they contain, nothing more. */
export class PlainTermMatch implements IdeaRanker {
  private readonly ideas: Array<{ id: string; words: Set<string> }> = [];

  put(idea: IdeaText): void {
    const text = [idea.title, idea.titleAr, idea.description].filter(Boolean).join(' ');
    this.ideas.push({ id: idea.id, words: new Set(wordsOf(text)) });
  }

  similarTo(text: string, { limit }: { limit: number }): Array<{ id: string; score: number }> {
    const query = new Set(wordsOf(text));
    return this.ideas
      .map(({ id, words }) => ({ id, score: [...query].filter((word) => words.has(word)).length }))
      .filter((match) => match.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  }
}

const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
