/**
 * POST /ideas: an idea whose labels the workspace configures, in one transaction with its ranks and its
 * submitter's references (by which an erasure finds it); a retry under its Idempotency-Key gets the first
 * answer. The workspace's ideas most like the new one are looked up (find-similar-ideas.ts) and
 * answered as possible duplicates: beside the write, in parallel with it; or, with an Idempotency-Key,
 * before it, so that they are remembered with the idea and a retry gets them as first found (their
 * scores move as ideas come and go, the new one included). One round trip deeper for that request.
 */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { logger } from '../../platform/logger.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { assertConfiguredLabels } from '../changes.ts';
import { submitterRefsOf } from '../people.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';
import { type RememberedIdeaCreate, writeNewIdea } from '../store/ideas.ts';
import { duplicateCandidatesOf, duplicatesBesides, type SimilarIdea } from './find-similar-ideas.ts';

/** The answer of a create: the idea and, when they could be looked up, its possible duplicates. */
export interface CreatedIdea {
  idea: Idea;
  possibleDuplicates: SimilarIdea[] | undefined;
}

export async function createIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  write: IdeaWrite,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<CreatedIdea & { replayed: boolean }> {
  assertConfiguredLabels(workspace.ideaLabels, write);
  const writeIt = async (rememberedWith?: Record<string, unknown>) =>
    writeNewIdea(workspace.slug, write, {
      keyId,
      idempotency,
      submitterRefs: await submitterRefsOf(workspace.slug, write.submitter),
      rememberedWith,
    });
  if (idempotency) {
    // The idea does not exist yet, so none of the candidates is the idea itself.
    const candidates = await duplicateCandidatesOrNothing(workspace.slug, write);
    const possibleDuplicates = candidates && duplicatesBesides(candidates);
    const { created, replayed } = await writeIt(possibleDuplicates && { possibleDuplicates });
    if (!replayed) countBusinessEvent('IdeasCreated');
    return { ...createdIdeaOf(created), replayed };
  }
  const [{ created }, candidates] = await Promise.all([writeIt(), duplicateCandidatesOrNothing(workspace.slug, write)]);
  countBusinessEvent('IdeasCreated');
  return { idea: created.idea, possibleDuplicates: candidates && duplicatesBesides(candidates, created.idea.id), replayed: false };
}

/**
 * A create's first answer, as remembered under its Idempotency-Key. A record written before the
 * duplicates were remembered with the idea (the idea alone; such records live 24 hours after an
 * upgrade) has them looked up again.
 */
export async function rememberedCreateOf(workspace: string, remembered: unknown): Promise<CreatedIdea> {
  const record = remembered as RememberedIdeaCreate | Idea;
  if ('idea' in record && typeof record.idea === 'object') return createdIdeaOf(record);
  const idea = record as Idea;
  const candidates = await duplicateCandidatesOrNothing(workspace, idea);
  return { idea, possibleDuplicates: candidates && duplicatesBesides(candidates, idea.id) };
}

function createdIdeaOf(created: RememberedIdeaCreate): CreatedIdea {
  return { idea: created.idea, possibleDuplicates: created.possibleDuplicates as SimilarIdea[] | undefined };
}

/**
 * Possible duplicates are advice: when they cannot be looked up (the table busy) the idea is created
 * all the same and the answer goes without them, rather than a failure that invites a second create.
 */
async function duplicateCandidatesOrNothing(workspace: string, idea: IdeaWrite | Idea): Promise<SimilarIdea[] | undefined> {
  try {
    return await duplicateCandidatesOf(workspace, idea);
  } catch (error) {
    logger.warn('possible duplicates not looked up', { error });
    return undefined;
  }
}
