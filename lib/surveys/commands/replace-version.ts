/**
 * Saves a draft's definition with fresh issues, in one conditional UpdateItem on the revisions the
 * client read (If-Match: two editors of one draft must never overwrite each other silently).
 */
import type { SurveyDefinition } from '../engine/definition.ts';
import type { SurveyVersion } from '../schemas.ts';
import { writeVersionDefinition } from '../store/versions.ts';
import { validateDefinition } from './validate-definition.ts';

export function replaceVersion(
  workspace: string,
  surveyId: string,
  versionId: string,
  definition: SurveyDefinition,
  revisions: number[],
): Promise<SurveyVersion> {
  const issues = validateDefinition(definition);
  return writeVersionDefinition(workspace, surveyId, versionId, { definition, issues }, revisions);
}
