/** POST /ideas: an idea whose labels the workspace configures, in one transaction; a retry under its Idempotency-Key gets the first answer. */
import type { IdempotentRequest } from '../../platform/data/idempotency.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { countBusinessEvent } from '../../platform/metrics.ts';
import { assertConfiguredLabels } from '../changes.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';
import { createIdea as storeIdea } from '../store/ideas.ts';

export type { Idea };

export async function createIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  write: IdeaWrite,
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<{ idea: Idea; replayed: boolean }> {
  assertConfiguredLabels(workspace.ideaLabels, write);
  const created = await storeIdea(workspace.slug, write, { keyId, idempotency });
  if (!created.replayed) countBusinessEvent('IdeasCreated');
  return created;
}
