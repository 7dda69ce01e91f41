/**
 * Who sees what of the SOPs (spec part 4, rule 5): keys that work on SOPs (sops:write or
 * sops:approve) see every state and the review comments; a key with sops:read alone sees only
 * published SOPs, gets 404 for the others, and never sees review comments.
 */
import { type AuthContext, holds } from '../platform/auth/context.ts';

export function seesUnpublishedSops(auth: AuthContext): boolean {
  return holds(auth, 'sops:write') || holds(auth, 'sops:approve');
}
