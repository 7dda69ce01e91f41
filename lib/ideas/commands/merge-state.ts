/** What merge and unmerge read first: both ideas' merge fields and the source's gate, in one round trip; and the ideas they answer. */
import { ideaNotFound } from '../errors.ts';
import type { MergeState, MergeWork } from '../merging.ts';
import type { Idea } from '../schemas.ts';
import { findIdea } from '../store/ideas.ts';
import { readMergeSides } from '../store/merges.ts';

type Item = Record<string, unknown>;

const setOf = (value: unknown) => (value instanceof Set ? [...(value as Set<string>)].sort() : []);

function stateOf(idea: Item | undefined, gate: Item | undefined): MergeState | null {
  if (!idea) return null;
  return {
    id: idea.id as string,
    mergedInto: (idea.mergedInto as string | undefined) ?? null,
    mergedFrom: setOf(idea.mergedFrom),
    mergeWork: (gate?.mergeWork as MergeWork | undefined) ?? null,
  };
}

export async function readMergeState(workspace: string, sourceId: string, targetId: string | null) {
  const [source, gate, target] = await readMergeSides(workspace, sourceId, targetId);
  return {
    source: stateOf(source, gate),
    target: targetId ? stateOf(target, undefined) : null,
    version: (source?.version as number | undefined) ?? 0,
    generation: (gate?.mergeGeneration as number | undefined) ?? 0,
    mergeTarget: (gate?.mergeTarget as string | undefined) ?? null,
  };
}

/** The idea as a response shows it, with its counts; 404 when it is gone. */
export async function requireIdea(workspace: string, id: string): Promise<Idea> {
  const idea = await findIdea(workspace, id);
  if (!idea) throw ideaNotFound();
  return idea;
}
