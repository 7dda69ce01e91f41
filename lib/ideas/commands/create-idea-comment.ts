/** POST /ideas/{id}/comments: a comment whose author is a reference (lib/ideas/people.ts), in one transaction that checks the idea. */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { uuidv7 } from '../../platform/ids.ts';
import type { Comment, CommentWrite } from '../comment-schemas.ts';
import { personRefOf } from '../people.ts';
import { createIdeaComment as storeComment } from '../store/comments.ts';

export async function createIdeaComment(
  workspace: string,
  ideaId: string,
  write: CommentWrite,
  options: { keyId: string; idempotency: IdempotentRequest | undefined },
): Promise<{ comment: Comment; replayed: boolean }> {
  const { name, ...identity } = write.author;
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const comment: Comment = {
    id: uuidv7(nowMs),
    ideaId,
    body: write.body,
    bodyAr: write.bodyAr ?? null,
    authorName: name ?? null,
    authorRef: await personRefOf(workspace, identity),
    visibility: write.visibility ?? 'public',
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  return storeComment(workspace, comment, write, options);
}
