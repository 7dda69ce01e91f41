/**
 * The vote item and its mapping. One item per (idea, voter): `voterRef` (never the identifier), the
 * importance and note, `direct` (cast on this idea) and `mergedFrom` (a string set of the merged ideas
 * the voter's vote also comes from: lib/ideas/merging.ts), `version`, and the voter's gsi1 entry for
 * the erasure of a person. `workspace`, `ideaId` and `id` name it on the table stream.
 */
import type { Importance } from './vote-count.ts';
import { personListing, voteEntity } from './vote-entities.ts';
import type { Vote } from './vote-schemas.ts';

type Item = Record<string, unknown>;

/** What a vote's count depends on: it counts while it exists, with its importance and the time it was cast (trend). */
export interface StoredVote {
  id: string;
  ideaId: string;
  voterRef: string;
  importance: Importance;
  note: string | null;
  direct: boolean;
  mergedFrom: string[];
  version: number;
  createdAt: string;
  updatedAt: string;
}

const setOf = (value: unknown): string[] =>
  value instanceof Set ? [...(value as Set<string>)].sort() : Array.isArray(value) ? [...value] : [];

export function storedVoteOf(item: Item): StoredVote {
  return {
    id: item.id as string,
    ideaId: item.ideaId as string,
    voterRef: item.voterRef as string,
    importance: item.importance as Importance,
    note: (item.note as string | undefined) ?? null,
    direct: item.direct === true,
    mergedFrom: setOf(item.mergedFrom),
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

export const toVote = (stored: StoredVote): Vote => ({ ...stored });

/** The whole item of a vote (a new one, or one a merge carries to its target). */
export function voteItem(workspace: string, vote: StoredVote): Item {
  return {
    ...voteEntity.keys.vote(workspace, vote.ideaId, vote.id),
    entity: voteEntity.name,
    workspace,
    ideaId: vote.ideaId,
    id: vote.id,
    voterRef: vote.voterRef,
    importance: vote.importance,
    ...(vote.note === null ? {} : { note: vote.note }),
    direct: vote.direct,
    ...(vote.mergedFrom.length > 0 ? { mergedFrom: new Set(vote.mergedFrom) } : {}),
    version: vote.version,
    createdAt: vote.createdAt,
    updatedAt: vote.updatedAt,
    gsi1pk: personListing(workspace, vote.voterRef),
    gsi1sk: `IDEAVOTE#${vote.ideaId}`,
  };
}
