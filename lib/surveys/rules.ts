/**
 * Request rules of the Surveys area that are more than a body's shape: a draft save names the
 * revision it replaces, definitions have a size cap, and targeting must fit the audience catalog.
 */
import { ApiError, BadRequestError, ValidationError } from '../platform/errors.ts';
import { ifMatchPrecondition } from '../platform/http/conditional-request.ts';
import type { SurveyDefinition } from './engine/definition.ts';
import { type AudienceAttribute, type TargetingRules, validateTargeting } from './engine/targeting.ts';
import { DEFINITION_MAX_BYTES } from './schemas.ts';

/** The revisions an `If-Match` names; saving a draft without one (or with `*`) is refused. */
export function requiredRevisions(headers: Record<string, string | undefined>): number[] {
  const precondition = ifMatchPrecondition(headers);
  if (!precondition || precondition.anyVersion) {
    throw new BadRequestError('if_match_required', 'Send If-Match with the ETag (revision) of the draft as you last read it, e.g. "1"');
  }
  return precondition.versions;
}

export function assertDefinitionSize(definition: SurveyDefinition): void {
  if (Buffer.byteLength(JSON.stringify(definition), 'utf8') > DEFINITION_MAX_BYTES) {
    throw new ApiError(413, 'definition_too_large', `A definition is at most ${DEFINITION_MAX_BYTES} bytes of UTF-8 JSON`);
  }
}

export function assertTargetingValid(rules: TargetingRules, catalog: readonly AudienceAttribute[]): void {
  const problems = validateTargeting(rules, catalog);
  if (problems.length > 0) {
    throw new ValidationError(
      'invalid_body',
      problems.map((problem) => ({ path: `body.targetingRules${problem.path.replaceAll('/', '.')}`, message: problem.message })),
    );
  }
}
