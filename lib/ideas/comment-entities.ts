/**
 * The items of comments (lib/platform/data/entity.ts), under the workspace's partition. People write
 * comments, so their ids are UUIDv7 and an idea's comments sort by creation in one range, its counter
 * right after them ('$' > '#'), so a descending Query of the range meets the counter first:
 *
 *   IDEACOMMENT#<ideaId>#<commentId>   a comment; its gsi1 entry is its author's
 *                                      (`WS#<ws>#PERSON#<authorRef>` / `IDEACOMMENT#<ideaId>#<commentId>`)
 *   IDEACOMMENT#<ideaId>$COUNT         how many public and internal comments the idea has
 *
 * A comment holds its author's identifier (`author`, for the portal) besides what a response shows;
 * reads project only PUBLIC_COMMENT_ATTRIBUTES.
 */
import { defineEntity } from '../platform/data/entity.ts';
import { keys } from '../platform/data/keys.ts';

const pk = keys.workspacePk;

export const PUBLIC_COMMENT_ATTRIBUTES = [
  'id',
  'ideaId',
  'body',
  'bodyAr',
  'authorName',
  'authorRef',
  'visibility',
  'version',
  'createdAt',
  'updatedAt',
] as const;

export const commentEntity = defineEntity({
  name: 'IdeaComment',
  keys: {
    comment: (workspace: string, ideaId: string, commentId: string) => ({ pk: pk(workspace), sk: `IDEACOMMENT#${ideaId}#${commentId}` }),
    /** Inclusive bounds of an idea's comments, without their counter. */
    range: (ideaId: string) => ({ from: `IDEACOMMENT#${ideaId}#`, to: `IDEACOMMENT#${ideaId}#~` }),
    /** The comment id at the end of a comment's sort key. */
    idOf: (sk: string) => sk.slice(sk.lastIndexOf('#') + 1),
  },
  publicAttributes: PUBLIC_COMMENT_ATTRIBUTES,
  keyOf: (item) => ({ pk: pk(item.workspace as string), sk: `IDEACOMMENT#${item.ideaId as string}#${item.id as string}` }),
});

export const commentCounterEntity = defineEntity({
  name: 'IdeaCommentCounter',
  keys: { counter: (workspace: string, ideaId: string) => ({ pk: pk(workspace), sk: `IDEACOMMENT#${ideaId}$COUNT` }) },
});

export const COMMENT_ENTITIES = [commentEntity, commentCounterEntity] as const;
