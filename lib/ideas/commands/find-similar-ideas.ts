/**
 * GET /ideas/similar, and the possible duplicates POST /ideas answers: the workspace's ideas closest
 * to a text. The instance's index names candidates (lib/ideas/similar/index-cache.ts); they are read
 * again as they are now, a deleted one dropped and an edited one rescored, before any is answered.
 * Calls: one Query (ideas created since the last lookup; a whole build of the workspace on its
 * first lookup in an instance, one call per 1 MB page) then one BatchGetItem: depth 2 when warm.
 */

import type { SimilarityIndex } from '../similar/index.ts';
import { DUPLICATE_MIN_SCORE } from '../similar/index.ts';
import { duplicatesIndexOf, similarityIndexOf } from '../similar/index-cache.ts';
import type { SimilarIdea } from '../similar/schemas.ts';
import { ideasByIds } from '../similar/store/ideas.ts';

export type { SimilarIdea };

/** Candidates read beyond the limit, so the answer stays full when some were deleted or edited away. */
const SPARE_CANDIDATES = 5;
const DUPLICATES_SHOWN = 3;

interface SimilarOptions {
  limit: number;
  minScore?: number;
  /** An idea to leave out (the one just created). */
  exclude?: string;
}

/** Where the candidates come from and how they are read again: a lookup's (strongly consistent), or a create's. */
interface Reading {
  index: (workspace: string) => Promise<SimilarityIndex>;
  consistent: boolean;
}

const LOOKUP: Reading = { index: similarityIndexOf, consistent: true };
/** Possible duplicates are advice: a fixed catch-up and eventually consistent reads (index-cache.ts). */
const DUPLICATES: Reading = { index: duplicatesIndexOf, consistent: false };

export async function findSimilarIdeas(
  workspace: string,
  text: string,
  options: SimilarOptions,
  reading: Reading = LOOKUP,
): Promise<SimilarIdea[]> {
  const index = await reading.index(workspace);
  const candidates = index.similarTo(text, { ...options, limit: options.limit + SPARE_CANDIDATES });
  const current = await ideasByIds(
    workspace,
    candidates.map((candidate) => candidate.id),
    reading.consistent,
  );
  for (const { id } of candidates) {
    const idea = current.get(id);
    if (idea) index.put(idea);
    else index.remove(id);
  }
  return index.similarTo(text, options).flatMap(({ id, score, matchedTerms }) => {
    const idea = current.get(id);
    return idea ? [{ idea, score, matchedTerms }] : [];
  });
}

/** The text an idea is compared by: its titles and its description. */
function ideaTextOf(idea: { title: string; titleAr?: string | null; description?: string | null }): string {
  return [idea.title, idea.titleAr, idea.description].filter(Boolean).join('\n');
}

/**
 * The existing ideas most like `idea` above the calibrated score: one more than are shown, since a
 * lookup running beside the idea's creation may find the idea itself (duplicatesBesides leaves it out).
 */
export function duplicateCandidatesOf(
  workspace: string,
  idea: { title: string; titleAr?: string | null; description?: string | null },
): Promise<SimilarIdea[]> {
  return findSimilarIdeas(workspace, ideaTextOf(idea), { limit: DUPLICATES_SHOWN + 1, minScore: DUPLICATE_MIN_SCORE }, DUPLICATES);
}

/** The top three candidates that are not the idea itself (or, looked up before it existed, the top three). */
export function duplicatesBesides(candidates: readonly SimilarIdea[], ideaId?: string): SimilarIdea[] {
  return candidates.filter((match) => match.idea.id !== ideaId).slice(0, DUPLICATES_SHOWN);
}
