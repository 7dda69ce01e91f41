/**
 * Request rules of the Surveys area that are more than a body's shape: definitions have a size
 * cap, and targeting must fit the audience catalog (the chain holds a draft save to the revision it
 * replaces: its route's If-Match is required and refuses `*`).
 */
import { ApiError, ValidationError } from '../platform/errors.ts';
import type { SurveyDefinition } from './engine/definition.ts';
import { type AudienceAttribute, type TargetingRules, validateTargeting } from './engine/targeting.ts';
import { DEFINITION_MAX_BYTES } from './schemas.ts';

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
