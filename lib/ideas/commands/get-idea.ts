/** GET /ideas/{id}: one idea of the workspace (one consistent read), or 404. */
import { ideaNotFound } from '../errors.ts';
import type { Idea } from '../schemas.ts';
import { findIdea } from '../store/ideas.ts';

export async function getIdea(workspace: string, id: string): Promise<Idea> {
  const idea = await findIdea(workspace, id);
  if (!idea) throw ideaNotFound();
  return idea;
}
