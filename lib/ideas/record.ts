/** The idea item's mapping to the API's record (the item is declared in entities.ts); free of the client so tools and tests can use it. */
import { createHash } from 'node:crypto';
import { uuidv7 } from '../platform/ids.ts';
import type { Idea, IdeaWrite } from './schemas.ts';
import type { VoteCounts } from './vote-count.ts';

/** The fields a client may write; update expressions are built from this list only. */
export const EDITABLE_IDEA_FIELDS = ['title', 'titleAr', 'description', 'status', 'module', 'statusMessage', 'statusMessageAr'] as const;
export type EditableIdeaField = (typeof EDITABLE_IDEA_FIELDS)[number];

/** The editable fields a whole write (POST, PUT) sets: an optional one left out is null. */
export function writtenFields(write: IdeaWrite): Pick<Idea, EditableIdeaField> {
  return {
    title: write.title,
    titleAr: write.titleAr ?? null,
    description: write.description ?? null,
    status: write.status ?? null,
    module: write.module ?? null,
    statusMessage: write.statusMessage ?? null,
    statusMessageAr: write.statusMessageAr ?? null,
  };
}

/** The editable fields as item attributes: a null one is no attribute at all (undefined is dropped on write), never a NULL. */
export function storedFields(fields: Pick<Idea, EditableIdeaField>): { [F in EditableIdeaField]?: string } {
  return Object.fromEntries(EDITABLE_IDEA_FIELDS.map((field) => [field, fields[field] ?? undefined]));
}

export interface StoredSubmitter {
  name?: string;
  email?: string;
  externalId?: string;
}

/** No vote yet: what a new idea, or one whose shards are empty, counts. */
export const NO_VOTES: VoteCounts = { voteCount: 0, importance: { nice: 0, important: 0, critical: 0 } };

/**
 * Picks the public fields; anything else on the item (private data included) is dropped here. The
 * counts are the vote-count shards' sums (vote-count.ts), read beside the item.
 */
export function toIdea(item: Record<string, unknown>, counts: VoteCounts = NO_VOTES): Idea {
  const optional = (name: string) => (item[name] as string | undefined) ?? null;
  return {
    id: item.id as string,
    title: item.title as string,
    titleAr: optional('titleAr'),
    description: optional('description'),
    status: optional('status'),
    module: optional('module'),
    moderationStatus: item.moderationStatus as string,
    visibility: item.visibility as string,
    priority: optional('priority'),
    statusMessage: optional('statusMessage'),
    statusMessageAr: optional('statusMessageAr'),
    voteCount: counts.voteCount,
    importance: { ...counts.importance },
    mergedInto: optional('mergedInto'),
    mergedFrom: item.mergedFrom instanceof Set ? [...(item.mergedFrom as Set<string>)].sort() : [],
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Its text sorts by creation
 * time, which gives the list its newest-first order straight from the sort key.
 */
export const newIdeaId = uuidv7;

/**
 * Lets the portal group one submitter's ideas without comparing raw identities. Scoped to the
 * workspace, so the same person in two workspaces cannot be linked through it.
 */
export function submitterHashOf(workspace: string, submitter: StoredSubmitter | undefined): string | undefined {
  const identity = submitter?.externalId
    ? `id:${submitter.externalId}`
    : submitter?.email
      ? `email:${submitter.email.toLowerCase()}`
      : undefined;
  if (!identity) return undefined;
  return createHash('sha256').update(`${workspace}\u0000${identity}`).digest('hex');
}
