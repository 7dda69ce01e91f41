/**
 * PUT /ideas/{id}: every writable field replaced in one conditional write (optionally only at the
 * If-Match version), after the idea's vote counts are read beside the rate-limit count: the answer shows
 * them, and the status written records how many had voted (`idea.status_changed` carries it).
 */
import type { VersionPrecondition } from '../../platform/data/conditions.ts';
import type { Workspace } from '../../platform/data/workspace-record.ts';
import { assertConfiguredLabels, replacementOf } from '../changes.ts';
import { submitterRefsOf } from '../people.ts';
import type { Idea, IdeaWrite } from '../schemas.ts';
import { writeIdeaChanges } from '../store/ideas.ts';
import { readVoteCounts } from '../store/vote-counts.ts';

export async function replaceIdea(
  workspace: Pick<Workspace, 'slug' | 'ideaLabels'>,
  id: string,
  write: IdeaWrite,
  precondition: VersionPrecondition,
  keyId: string,
): Promise<Idea> {
  assertConfiguredLabels(workspace.ideaLabels, write);
  const [counts, submitterRefs] = await Promise.all([readVoteCounts(workspace.slug, id), submitterRefsOf(workspace.slug, write.submitter)]);
  const changes = { ...replacementOf(write), submitterRefs, statusVoterCount: counts.voteCount };
  return writeIdeaChanges(workspace.slug, id, changes, precondition, keyId, counts);
}
