/** Walks a version's logic for given answers (engine/simulate.ts); stores nothing. */
import type { Language } from '../engine/definition.ts';
import { type SimulationRun, simulate } from '../engine/simulate.ts';
import { getVersion } from './get-version.ts';

export async function simulateVersion(
  workspace: string,
  surveyId: string,
  versionId: string,
  answers: Record<string, unknown>,
  language: Language | undefined,
): Promise<SimulationRun> {
  const version = await getVersion(workspace, surveyId, versionId);
  return simulate(version.definition, answers, language);
}
