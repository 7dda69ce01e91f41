/** A definition's issues, as a save would report them (413 over the size cap); nothing is stored. */
import type { SurveyDefinition } from '../engine/definition.ts';
import { type Issue, validateDefinition as issuesOf } from '../engine/validate.ts';
import { assertDefinitionSize } from '../rules.ts';

export function validateDefinition(definition: SurveyDefinition): Issue[] {
  assertDefinitionSize(definition);
  return issuesOf(definition);
}
