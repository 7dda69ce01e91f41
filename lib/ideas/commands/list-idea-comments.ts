/** GET /ideas/{id}/comments: a page of the idea's comments and of the ideas merged into it, newest first, with the total. */
import type { PageStart } from '../../platform/pagination.ts';
import type { CommentVisibility } from '../comment-schemas.ts';
import { type CommentPage, listIdeaComments as readPage } from '../store/comments.ts';
import { findMergeSources } from '../store/merges.ts';

export function listIdeaComments(
  workspace: string,
  ideaId: string,
  visibility: CommentVisibility | undefined,
  page: PageStart,
): Promise<CommentPage> {
  return readPage(workspace, ideaId, visibility, page, () => findMergeSources(workspace, ideaId));
}
