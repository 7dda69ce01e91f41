/**
 * The similarity index of one workspace's ideas: an inverted index from term to the ideas holding
 * it, scored by the cosine of TF-IDF vectors. Terms are the knowledge bank's (normalise.ts
 * `termOf`: Arabic folded and lightly stemmed, English Porter-stemmed, stop words dropped), so
 * "exporting invoices" meets "export of invoice" and "الفواتير" meets "فواتير".
 *
 * Cosine rather than BM25: it is bounded (0-1) and symmetric, so one calibrated threshold tells a
 * likely duplicate from a loose match whatever the lengths (POST /ideas `possibleDuplicates`).
 * An idea's title (both languages) counts twice, its description once: titles say what is asked.
 * Stems only, not the knowledge bank's extra exact-word term: that term serves its typo tolerance,
 * and here it would only pull "exporting invoices" away from "export an invoice".
 * Pure and free of the client, so the unit test and the bench score exactly what the API scores.
 */
import { termOf, tokenize } from '../../knowledge-bank/search/normalise.ts';

export interface IdeaText {
  id: string;
  title: string;
  titleAr?: string | null;
  description?: string | null;
}

export interface SimilarMatch {
  id: string;
  /** Cosine similarity, 0-1, rounded to three decimals. */
  score: number;
  /** The query's words (lower case, as typed) that the idea shares, in query order. */
  matchedTerms: string[];
}

/** Weights of a text's fields: a title states the request; a description adds context. */
const TITLE_WEIGHT = 2;
const DESCRIPTION_WEIGHT = 1;

/** Term → raw frequency (field-weighted) of a text; `words` remembers which typed word made each term. */
function termFrequencies(parts: Array<[string | null | undefined, number]>, words?: Map<string, string>): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const [text, weight] of parts) {
    if (!text) continue;
    for (const word of tokenize(text)) {
      const term = termOf(word);
      if (term === null) continue;
      frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
      if (words && !words.has(term)) words.set(term, word.toLowerCase());
    }
  }
  return frequencies;
}

const ideaParts = (idea: IdeaText): Array<[string | null | undefined, number]> => [
  [idea.title, TITLE_WEIGHT],
  [idea.titleAr, TITLE_WEIGHT],
  [idea.description, DESCRIPTION_WEIGHT],
];

/** Sub-linear term frequency: a word said five times is not five times as relevant. */
const tfWeight = (frequency: number) => 1 + Math.log(frequency);

interface Indexed {
  id: string;
  /** What was indexed: putting the same text again changes nothing. */
  text: string;
  /** Term frequencies, kept so the vector norm can be recomputed as document frequencies move. */
  terms: Map<string, number>;
  /** The vector norm and the index generation it was computed at. */
  norm?: { value: number; generation: number };
}

export class SimilarityIndex {
  private readonly ideas = new Map<string, Indexed>();
  /** term → ids of the ideas holding it. */
  private readonly postings = new Map<string, Set<string>>();
  /**
   * Bumped by every change: a norm depends on every document frequency, so one computed before a
   * change is computed again when next needed (lazily: only the candidates of a lookup).
   */
  private generation = 0;

  /** Adds or replaces one idea (a lookup's catch-up puts the last seconds' ideas again: then nothing changes). */
  put(idea: IdeaText): void {
    const text = [idea.title, idea.titleAr ?? '', idea.description ?? ''].join('\u0000');
    if (this.ideas.get(idea.id)?.text === text) return;
    this.remove(idea.id);
    this.generation++;
    const terms = termFrequencies(ideaParts(idea));
    this.ideas.set(idea.id, { id: idea.id, text, terms });
    for (const term of terms.keys()) {
      const holders = this.postings.get(term) ?? new Set<string>();
      holders.add(idea.id);
      this.postings.set(term, holders);
    }
  }

  remove(id: string): void {
    const indexed = this.ideas.get(id);
    if (!indexed) return;
    this.generation++;
    this.ideas.delete(id);
    for (const term of indexed.terms.keys()) {
      const holders = this.postings.get(term);
      holders?.delete(id);
      if (holders?.size === 0) this.postings.delete(term);
    }
  }

  /** Smoothed inverse document frequency: a term every idea holds still weighs a little. */
  private idf(term: string): number {
    return Math.log(1 + (this.ideas.size + 1) / ((this.postings.get(term)?.size ?? 0) + 1));
  }

  private normOf(indexed: Indexed): number {
    if (indexed.norm?.generation !== this.generation) indexed.norm = { value: this.norm(indexed.terms), generation: this.generation };
    return indexed.norm.value;
  }

  private norm(terms: Map<string, number>): number {
    let sum = 0;
    for (const [term, frequency] of terms) sum += (tfWeight(frequency) * this.idf(term)) ** 2;
    return Math.sqrt(sum);
  }

  /**
   * The ideas most similar to `text`, best first, at most `limit`, each scoring above `minScore`;
   * `exclude` leaves one idea out (the idea the text is, when comparing an idea with the others).
   * Only ideas sharing a term are scored, so the cost follows the query's postings, not the workspace.
   */
  similarTo(text: string, { limit, minScore = 0, exclude }: { limit: number; minScore?: number; exclude?: string }): SimilarMatch[] {
    const words = new Map<string, string>();
    const query = termFrequencies([[text, 1]], words);
    const queryNorm = this.norm(query);
    if (queryNorm === 0) return [];
    const dots = new Map<string, number>();
    for (const [term, frequency] of query) {
      const holders = this.postings.get(term);
      if (!holders) continue;
      const idf = this.idf(term);
      const queryWeight = tfWeight(frequency) * idf;
      for (const id of holders) {
        if (id === exclude) continue;
        const ideaWeight = tfWeight(this.ideas.get(id)!.terms.get(term)!) * idf;
        dots.set(id, (dots.get(id) ?? 0) + queryWeight * ideaWeight);
      }
    }
    const scored: Array<{ id: string; score: number }> = [];
    for (const [id, dot] of dots) {
      const score = Math.round((dot / (queryNorm * this.normOf(this.ideas.get(id)!))) * 1000) / 1000;
      if (score > minScore) scored.push({ id, score });
    }
    // Ties by id, newest first (UUIDv7): the same question always gets the same order.
    const best = scored.sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : -1)).slice(0, limit);
    // The shared words of the answered ideas only: most candidates are never answered.
    return best.map(({ id, score }) => {
      const terms = this.ideas.get(id)!.terms;
      return { id, score, matchedTerms: [...new Set([...query.keys()].filter((term) => terms.has(term)).map((term) => words.get(term)!))] };
    });
  }
}

/**
 * The score above which POST /ideas names an idea a possible duplicate. Calibrated on the labelled
 * paraphrases (`npm run bench`, similar ideas): 50 of the 61 paraphrases score above it, and 1 of
 * the 139 other ideas in their top five does.
 */
export const DUPLICATE_MIN_SCORE = 0.3;
