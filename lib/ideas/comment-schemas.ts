/**
 * Schemas of comments on ideas. An author is a person like a voter: named in a request by `externalId`
 * or `email` (and optionally a display `name`), answered only as `authorName` and `authorRef`.
 */
import * as z from 'zod/mini';
import { named, pageQueryShape, timestamp } from '../platform/schemas.ts';
import { ideaIdShape, text } from './schemas.ts';
import { personRef } from './vote-schemas.ts';

const COMMENT_VISIBILITIES = ['public', 'internal'] as const;
export type CommentVisibility = (typeof COMMENT_VISIBILITIES)[number];
const COMMENT_BODY_MAX = 4000;

const visibility = z.enum(COMMENT_VISIBILITIES).register(z.globalRegistry, {
  description: '`public` (shown to customers in the portal) or `internal` (the team only)',
});

const body = text(COMMENT_BODY_MAX).check(
  z.minLength(1, 'is required'),
  z.refine((value) => value.trim().length > 0, 'must not be blank'),
);

const authorName = text(200, "The author's display name, shown with the comment");
const email = z.email().check(z.maxLength(254));
const externalId = text(200, "The author's id in your system");

/** CommentWrite: the body of POST /ideas/{id}/comments. */
export const commentWrite = named(
  'IdeaCommentWrite',
  z.strictObject({
    body,
    bodyAr: z.optional(z.nullable(text(COMMENT_BODY_MAX))),
    author: z
      .union([z.strictObject({ externalId, name: z.optional(authorName) }), z.strictObject({ email, name: z.optional(authorName) })])
      .register(z.globalRegistry, {
        description: 'Who wrote it: `externalId` or `email` (one of the two; never returned), and optionally a `name` to show',
      }),
    visibility: z.optional(visibility).register(z.globalRegistry, { description: '`public` when left out' }),
  }),
);
export type CommentWrite = z.output<typeof commentWrite>;

/** CommentPatch: any subset of the text and the visibility; the author never changes. */
export const commentPatch = named(
  'IdeaCommentPatch',
  z.strictObject({ body: z.optional(body), bodyAr: z.optional(z.nullable(text(COMMENT_BODY_MAX))), visibility: z.optional(visibility) }),
);
export type CommentPatch = z.output<typeof commentPatch>;

export const commentParams = z.strictObject({
  ...ideaIdShape,
  commentId: z
    .string()
    .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a comment id'))
    .register(z.globalRegistry, { description: 'The comment id, as returned when it was created' }),
});

export const listCommentsQuery = z.strictObject({
  ...pageQueryShape,
  visibility: z.optional(visibility.register(z.globalRegistry, { description: 'Only public or only internal comments' })),
});

export const comment = named(
  'IdeaComment',
  z.object({
    id: z.string(),
    ideaId: z.string().register(z.globalRegistry, {
      description: "The idea it was written on: another idea's id for a comment of an idea merged into this one",
    }),
    body: z.string(),
    bodyAr: z.nullable(z.string()),
    authorName: z.nullable(z.string()),
    authorRef: personRef('The author'),
    visibility,
    version: z.int().register(z.globalRegistry, { description: 'Starts at 1, +1 on each change; also the ETag' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type Comment = z.output<typeof comment>;
