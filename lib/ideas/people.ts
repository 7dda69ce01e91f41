/**
 * The people of ideas (voters, commenters, submitters) as the API may name them: never by e-mail or
 * external id, only by a reference (`voterRef`, `authorRef`) an integrator can match its own records
 * with.
 *
 * A reference is HMAC-SHA256 (lib/platform/keyed-hash.ts) of the workspace and the identifier, under a
 * key derived from the deployment's server secret (Secrets Manager in AWS), cut to 22 base64url
 * characters (132 bits). So:
 * - it cannot be reversed: without the key no one can test a guessed e-mail against it (a plain hash
 *   of an e-mail is reversed by hashing a list of e-mails);
 * - it cannot be correlated across workspaces: the workspace is part of what is hashed, so one person
 *   has unrelated references in two workspaces, and an integrator holding keys of both cannot link them;
 * - it is stable: the same e-mail (compared lower-cased) or external id gives the same reference in one
 *   workspace, for a vote and a comment alike, on every call.
 * The `submitterHash` ideas already keep is a plain SHA-256 of the same input: never returned, so
 * never offered for guessing, and left as it is.
 */
import { createHash } from 'node:crypto';
import { keyedHash } from '../platform/keyed-hash.ts';

/** How a request names a person: exactly one of the two. */
export type PersonIdentity = { externalId: string } | { email: string };

const REF_LENGTH = 22;

/** The identifier as it is hashed: an e-mail trimmed and lower-cased, an external id as given. */
function identityText(who: PersonIdentity): string {
  return 'email' in who ? `email:${who.email.trim().toLowerCase()}` : `id:${who.externalId}`;
}

/** The person's reference in this workspace (lib/ideas/people.ts, above). */
export async function personRefOf(workspace: string, who: PersonIdentity): Promise<string> {
  return (await keyedHash('idea-person', `${workspace}\n${identityText(who)}`)).slice(0, REF_LENGTH);
}

/** Every reference a stored submitter can be found by: one per identifier given (none for an anonymous idea). */
export async function submitterRefsOf(
  workspace: string,
  submitter: { email?: string; externalId?: string } | undefined,
): Promise<string[]> {
  const identities: PersonIdentity[] = [];
  if (submitter?.externalId) identities.push({ externalId: submitter.externalId });
  if (submitter?.email) identities.push({ email: submitter.email });
  return Promise.all(identities.map((who) => personRefOf(workspace, who)));
}

/**
 * A vote's id: a hash of the idea and the voter's reference, so one voter has one vote per idea (its
 * item's key) and votes again under the same id, while ids of one voter on two ideas have nothing in
 * common (a webhook payload carries the id, never the voter).
 */
export function voteIdOf(ideaId: string, voterRef: string): string {
  return createHash('sha256').update(`${ideaId}\n${voterRef}`).digest('base64url').slice(0, REF_LENGTH);
}
