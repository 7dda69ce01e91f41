/**
 * Schemas of the Ideas area: the write bodies (IdeaWrite for POST and PUT, IdeaPatch for PATCH),
 * the path id and the returned Idea. Limits are spec part 8. Whether a status or module is one of
 * the workspace's configured labels is a per-workspace rule, checked in lib/ideas/rules.ts.
 */
import * as z from 'zod/mini';
import { atMostCharacters, named, pageQueryShape, timestamp } from '../platform/schemas.ts';

/** A string of at most `max` characters, documented as `maxLength` in OpenAPI. */
export function text(max: number, description?: string) {
  return z
    .string()
    .check(atMostCharacters(max))
    .register(z.globalRegistry, { maxLength: max, ...(description ? { description } : {}) });
}

const IDEA_LIMITS = { title: 160, titleAr: 160, description: 4000, label: 100 } as const;
/** Serialized size of `customerContext`: keeps every idea well under DynamoDB's 400 KB item limit. */
const CUSTOMER_CONTEXT_MAX_BYTES = 16 * 1024;

const title = text(IDEA_LIMITS.title).check(
  z.minLength(1, 'is required'),
  z.refine((value) => value.trim().length > 0, 'must not be blank'),
);

/** Optional text fields take `null` too, so a client can send back what GET returned. */
const optionalText = (max: number) => z.optional(z.nullable(text(max)));

/**
 * A status or module: an identifier (lib/platform/identifiers.ts), so it is compared with the
 * configured labels, and stored, in its NFKC form (a fullwidth or decomposed spelling names the same label).
 */
const label = (description: string) =>
  z.optional(
    z
      .nullable(
        z
          .string()
          .check(z.normalize('NFKC'), atMostCharacters(IDEA_LIMITS.label))
          .register(z.globalRegistry, { maxLength: IDEA_LIMITS.label }),
      )
      .register(z.globalRegistry, { description: `${description}; compared in its Unicode NFKC form; null for none` }),
  );

const STATUS_MESSAGE_MAX = 1000;
const statusMessageNote = 'With `status` only: what the change means to its voters (in `idea.status_changed`)';

const editable = {
  titleAr: optionalText(IDEA_LIMITS.titleAr),
  description: optionalText(IDEA_LIMITS.description),
  status: label("One of the workspace's configured statuses (GET /ideas/labels)"),
  module: label("One of the workspace's configured modules (GET /ideas/labels)"),
  statusMessage: z.optional(z.nullable(text(STATUS_MESSAGE_MAX, statusMessageNote))),
  statusMessageAr: z.optional(z.nullable(text(STATUS_MESSAGE_MAX, 'The status message in Arabic'))),
};

/** A status message says what a status change means: without `status` in the same body it has nothing to go with. */
const messageNeedsStatus = z.superRefine(
  (value: { status?: string | null; statusMessage?: string | null; statusMessageAr?: string | null }, ctx) => {
    for (const field of ['statusMessage', 'statusMessageAr'] as const) {
      if (value[field] !== undefined && value[field] !== null && value.status === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: 'is sent with `status` only (it says what the status change means)',
          input: value,
        });
      }
    }
  },
);

const submitter = z
  .strictObject({
    name: z.optional(text(200)),
    email: z.optional(z.email().check(z.maxLength(254))),
    externalId: z.optional(text(200, "The submitter's id in your system")),
  })
  .register(z.globalRegistry, {
    description: 'Who submitted the idea. Stored for the portal, never returned by this API.',
  });

const customerContext = z
  .record(z.string(), z.unknown())
  .check(
    z.refine(
      (value) => Buffer.byteLength(JSON.stringify(value)) <= CUSTOMER_CONTEXT_MAX_BYTES,
      `must be at most ${CUSTOMER_CONTEXT_MAX_BYTES} bytes as JSON`,
    ),
  )
  .register(z.globalRegistry, {
    description: `Any JSON object (up to ${CUSTOMER_CONTEXT_MAX_BYTES} bytes) about the customer's situation. Stored for the portal, never returned by this API.`,
  });

/** IdeaWrite: the body of POST /ideas and PUT /ideas/{id}. */
export const ideaWrite = named(
  'IdeaWrite',
  z
    .strictObject({
      title,
      ...editable,
      submitter: z.optional(submitter),
      customerContext: z.optional(customerContext),
    })
    .check(messageNeedsStatus),
);
export type IdeaWrite = z.output<typeof ideaWrite>;

/** IdeaPatch: any subset of the editable fields; `null` clears an optional one. */
export const ideaPatch = named('IdeaPatch', z.strictObject({ title: z.optional(title), ...editable }).check(messageNeedsStatus));
export type IdeaPatch = z.output<typeof ideaPatch>;

/** Idea ids are opaque strings (UUIDv7 today); anything else cannot name an idea. */
export const ideaIdShape = {
  id: z
    .string()
    .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an idea id'))
    .register(z.globalRegistry, { description: 'The idea id, as returned when it was created' }),
};
export const ideaIdParams = z.strictObject(ideaIdShape);

/** The counts an idea shows. */
const importanceCounts = named(
  'IdeaImportanceCounts',
  z.object({ nice: z.int(), important: z.int(), critical: z.int() }).register(z.globalRegistry, {
    description: 'Of the counted voters, how many said each importance',
  }),
);

const nullableText = (description?: string) =>
  description ? z.nullable(z.string()).register(z.globalRegistry, { description }) : z.nullable(z.string());

/** The Idea as every response shows it. Submitter data and customer context are never part of it. */
export const idea = named(
  'Idea',
  z.object({
    id: z.string(),
    title: z.string(),
    titleAr: nullableText(),
    description: nullableText(),
    status: nullableText('A configured idea status, or null'),
    module: nullableText('A configured idea module, or null'),
    moderationStatus: z.string().register(z.globalRegistry, { description: '`pending` on creation; moderated in the portal' }),
    visibility: z.string().register(z.globalRegistry, { description: '`private` on creation; published in the portal' }),
    priority: nullableText('Set in the portal; null until the idea is prioritised'),
    statusMessage: nullableText('What the last status change means for the voters, when one was given with it'),
    statusMessageAr: nullableText('The status message in Arabic'),
    voteCount: z.int().register(z.globalRegistry, {
      description:
        'Its voters, exactly, each once: for an idea others were merged into, every distinct voter of it and of them (a customer who voted on two counts once)',
    }),
    importance: importanceCounts,
    mergedInto: nullableText(
      'The idea this one was merged into (it then leaves the default lists and takes no votes or comments); null when not merged',
    ),
    mergedFrom: z.array(z.string()).register(z.globalRegistry, { description: 'The ideas merged into this one' }),
    version: z.int().register(z.globalRegistry, { description: 'Starts at 1, +1 on each change; also the ETag' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type Idea = z.output<typeof idea>;

export const ideaLabels = named(
  'IdeaLabels',
  z.object({
    statuses: z.array(z.string()),
    modules: z.array(z.string()),
  }),
);

const IDEA_SORTS = ['-createdAt', 'createdAt', '-votes', 'votes', 'trending'] as const;
export type IdeaSort = (typeof IDEA_SORTS)[number];

/** GET /ideas: a page, in one of the orders, with or without the ideas merged into others. */
export const listIdeasQuery = z.strictObject({
  ...pageQueryShape,
  sort: z.optional(
    z.enum(IDEA_SORTS).register(z.globalRegistry, {
      description:
        '`-createdAt` (the default), `createdAt`, `-votes`, `votes` or `trending` (each vote weighs 1 when cast, halving every 7 days); ties by creation',
    }),
  ),
  includeMerged: z.optional(
    z
      .enum(['true', 'false'])
      .register(z.globalRegistry, { description: '`true` also lists the ideas merged into others (default `false`)' }),
  ),
});
export type ListIdeasQuery = z.output<typeof listIdeasQuery>;

/** POST /ideas/{id}/merge. */
export const mergeBody = named(
  'IdeaMerge',
  z.strictObject({
    into: z
      .string()
      .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be an idea id'))
      .register(z.globalRegistry, { description: 'The idea to merge this one into' }),
  }),
);
