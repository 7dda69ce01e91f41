/** The comment item and its mapping: what a response shows of it, and the item a new comment is. */

import { commentEntity } from './comment-entities.ts';
import type { Comment, CommentVisibility, CommentWrite } from './comment-schemas.ts';
import { personListing } from './vote-entities.ts';

type Item = Record<string, unknown>;

export function toComment(item: Item): Comment {
  return {
    id: item.id as string,
    ideaId: item.ideaId as string,
    body: item.body as string,
    bodyAr: (item.bodyAr as string | undefined) ?? null,
    authorName: (item.authorName as string | undefined) ?? null,
    authorRef: item.authorRef as string,
    visibility: item.visibility as CommentVisibility,
    version: item.version as number,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  };
}

/** The item of a new comment: the public fields, and the author's identifier kept for the portal only. */
export function commentItem(workspace: string, comment: Comment, write: CommentWrite, keyId: string): Item {
  const { name: _, ...identifier } = write.author;
  return {
    ...commentEntity.keys.comment(workspace, comment.ideaId, comment.id),
    entity: commentEntity.name,
    workspace,
    ...Object.fromEntries(Object.entries(comment).filter(([, value]) => value !== null)),
    author: identifier,
    createdByKeyId: keyId,
    gsi1pk: personListing(workspace, comment.authorRef),
    gsi1sk: `IDEACOMMENT#${comment.ideaId}#${comment.id}`,
  };
}
