/**
 * Schemas of votes on behalf of customers, and of the people behind votes and comments: a request
 * names a person by `externalId` or `email` (validated as an idea's submitter's is), a response only
 * by the person's reference (lib/ideas/people.ts).
 */
import * as z from 'zod/mini';
import { named, pageQueryShape, timestamp } from '../platform/schemas.ts';
import { ideaIdShape, text } from './schemas.ts';
import { IMPORTANCES } from './vote-count.ts';

const email = z.email().check(z.maxLength(254)).register(z.globalRegistry, { description: "The person's e-mail (compared lower-cased)" });
const externalId = text(200, "The person's id in your system");

/** A person named by one identifier: stored for the portal, never returned; the API answers their reference. */
const personIdentity = (description: string) =>
  z.union([z.strictObject({ externalId }), z.strictObject({ email })]).register(z.globalRegistry, {
    description: `${description}: \`externalId\` or \`email\`, one of the two. Never returned by this API.`,
  });

export const personRef = (description: string) =>
  z.string().register(z.globalRegistry, {
    description:
      `${description}: a stable, opaque reference to the person in this workspace (the same for their votes and comments), ` +
      'never their e-mail or external id; it cannot be turned back into either, and differs between workspaces',
  });

const importance = z.enum(IMPORTANCES).register(z.globalRegistry, { description: 'How much it matters to the voter' });

const VOTE_NOTE_MAX = 1000;

/** VoteWrite: the body of POST /ideas/{id}/votes. */
export const voteWrite = named(
  'IdeaVoteWrite',
  z.strictObject({
    voter: personIdentity('Who votes'),
    importance: z.optional(importance).register(z.globalRegistry, { description: '`nice` when left out' }),
    note: z.optional(z.nullable(text(VOTE_NOTE_MAX, 'Why it matters to the voter'))),
  }),
);
export type VoteWrite = z.output<typeof voteWrite>;

export const voteParams = z.strictObject({
  ...ideaIdShape,
  voteId: z
    .string()
    .check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a vote id'))
    .register(z.globalRegistry, { description: 'The vote id, as returned when it was cast' }),
});

/** A vote as every response shows it. */
export const vote = named(
  'IdeaVote',
  z.object({
    id: z.string().register(z.globalRegistry, {
      description:
        'The vote: one per voter and idea (voting again answers the same id); unrelated to the ids of the same voter on other ideas',
    }),
    ideaId: z.string(),
    voterRef: personRef('The voter'),
    importance,
    note: z.nullable(z.string()),
    direct: z.boolean().register(z.globalRegistry, {
      description:
        'Cast on this idea itself; false for a vote that counts here only because an idea it was cast on was merged into this one',
    }),
    mergedFrom: z.array(z.string()).register(z.globalRegistry, {
      description: 'The merged ideas (merged into this one) the voter also voted on: their votes count here, once',
    }),
    version: z.int().register(z.globalRegistry, { description: 'Starts at 1, +1 on each change; also the ETag' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);
export type Vote = z.output<typeof vote>;

export const listVotesQuery = z.strictObject(pageQueryShape);
