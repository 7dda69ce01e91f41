/** A draft survey with its first draft version, a starter definition with its issues (store/surveys.ts). */
import type { IdempotentRequest } from '../../platform/data/idempotent-request.ts';
import { type Language, starterDefinition } from '../engine/definition.ts';
import { validateDefinition } from '../engine/validate.ts';
import { type CreatedSurvey, writeNewSurvey } from '../store/surveys.ts';

export type { CreatedSurvey };

export function createSurvey(
  workspace: string,
  { name, language }: { name: string; language: Language },
  keyId: string,
  idempotency: IdempotentRequest | undefined,
): Promise<CreatedSurvey & { replayed: boolean }> {
  const definition = starterDefinition(language);
  return writeNewSurvey(workspace, { name, language, definition, issues: validateDefinition(definition) }, keyId, idempotency);
}
